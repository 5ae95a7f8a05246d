# Compiler settings shared by every target, applied through an interface library so that
# nothing is set globally (no CMAKE_CXX_FLAGS edits).
add_library(attn_project_options INTERFACE)
target_compile_options(attn_project_options INTERFACE
  -Wall -Wextra -Wpedantic
  $<$<CONFIG:Release,RelWithDebInfo>:-O3>
  "$<$<BOOL:${ATTN_NATIVE}>:-mavx2;-mfma;-mf16c>")
# Eigen's own asserts stay on in Debug; Release builds rely on our shape checks.
target_compile_definitions(attn_project_options INTERFACE
  $<$<CONFIG:Release>:EIGEN_NO_DEBUG>)
