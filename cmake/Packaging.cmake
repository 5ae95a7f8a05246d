# `cpack -G DEB` in a build folder (after building it): a Debian package of what
# `cmake --install` installs, under /usr. tests/package/check_deb.sh unpacks it into a fresh
# root and runs the program from there.
set(CPACK_PACKAGE_NAME attention-explorer)
set(CPACK_PACKAGE_VENDOR "The Attention Explorer authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explore the attention mechanism of neural networks")
set(ATTN_PACKAGE_MAINTAINER "The Attention Explorer authors <maintainers@attention-explorer.invalid>"
    CACHE STRING "The Maintainer field of the .deb")
set(CPACK_PACKAGE_CONTACT "${ATTN_PACKAGE_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/docs/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # attention-explorer_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The summary above is the synopsis line; this is the long description under it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Attention Explorer shows how attention in neural networks is computed. Type a
sentence and watch it become tokens, embeddings, queries, keys and values; switch
between dot-product, scaled, additive, bilinear, cosine and hard attention, mask
keys and switch heads off, and see every matrix of the computation as a heatmap.
Hugging Face checkpoints (GPT-2, BERT, Llama) open from disk layer by layer.
Matrices are computed with Vulkan on a GPU, or on the CPU; figures export as PNG,
SVG and PDF.")

# Depends: the libraries the program links, as dpkg-shlibdeps finds them (with the minimum
# versions their symbols need), plus the icon theme the icons install into. Without
# dpkg-shlibdeps (dpkg-dev) and file, the same packages are named by hand; check_deb.sh
# checks either list against what ldd finds.
find_program(ATTN_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(ATTN_FILE file)
if(ATTN_DPKG_SHLIBDEPS AND ATTN_FILE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "hicolor-icon-theme")
else()
  message(STATUS "dpkg-shlibdeps or file not found: the .deb's Depends are the hand-kept list")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6, libstdc++6, libgcc-s1, libgomp1, libqt6core6, libqt6gui6, libqt6widgets6, libqt6svg6, "
      "libqt6network6, libqt6printsupport6, libqcustomplot2.1-qt6, libsentencepiece0, hicolor-icon-theme")
  string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}")
endif()
# Opened at run time, not linked: Vulkan (the CPU computes without it) and Wayland's Qt
# platform (X11's is in libqt6gui6).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libvulkan1, mesa-vulkan-drivers, qt6-wayland")

include(CPack)
