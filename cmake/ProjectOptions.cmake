# Compiler settings shared by every target, applied through an interface library so that
# nothing is set globally (no CMAKE_CXX_FLAGS edits).
option(ATTN_WERROR "Treat compiler warnings as errors (CI)" OFF)
set(ATTN_SANITIZE "" CACHE STRING
    "Sanitizers for every target, as -fsanitize takes them: address,undefined (asan preset), thread (tsan preset)")
set(ATTN_LINKER "" CACHE STRING
    "Linker for every program, as -fuse-ld takes it (gold in the asan and tsan presets); empty: the compiler's default")

add_library(attn_project_options INTERFACE)
target_compile_options(attn_project_options INTERFACE
  -Wall -Wextra -Wpedantic
  $<$<BOOL:${ATTN_WERROR}>:-Werror>
  $<$<CONFIG:Release,RelWithDebInfo>:-O3>
  "$<$<BOOL:${ATTN_NATIVE}>:-mavx2;-mfma;-mf16c>")
# Eigen's own asserts stay on in Debug; Release builds rely on our shape checks.
target_compile_definitions(attn_project_options INTERFACE
  $<$<CONFIG:Release>:EIGEN_NO_DEBUG>)

if(ATTN_SANITIZE)
  # Every finding fails the test that meets it (UBSan would only print and go on). -O1 after
  # the -O3 above: the sanitizer builds compile in half the time, and their stack traces keep
  # every frame; -g1 gives them file and line without full debug info.
  target_compile_options(attn_project_options INTERFACE
    -fsanitize=${ATTN_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g1)
  target_link_options(attn_project_options INTERFACE -fsanitize=${ATTN_SANITIZE})
endif()

# The sanitizer builds link each of their ~120 test programs with the whole instrumented library
# stack (a ui test is ~200 MB): gold links one in half the time of the default ld.bfd (both from
# binutils, measured in the README's "Checks").
if(ATTN_LINKER)
  target_link_options(attn_project_options INTERFACE -fuse-ld=${ATTN_LINKER})
endif()
