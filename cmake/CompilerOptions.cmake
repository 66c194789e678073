# Warnings and sanitizers for every gapscan target, through one interface library.
add_library(gapscan_options INTERFACE)
target_compile_options(gapscan_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
  -Wimplicit-fallthrough)
if(GAPSCAN_WERROR)
  target_compile_options(gapscan_options INTERFACE -Werror)
endif()
if(GAPSCAN_SANITIZE)
  target_compile_options(gapscan_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(gapscan_options INTERFACE -fsanitize=address,undefined)
endif()
if(GAPSCAN_SANITIZE_THREAD)
  target_compile_options(gapscan_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(gapscan_options INTERFACE -fsanitize=thread)
endif()
if(GAPSCAN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GAPSCAN_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # Every library is instrumented for coverage and checked by ASan and UBSan; the fuzz targets
  # link libFuzzer's main (tests/fuzz/CMakeLists.txt).
  target_compile_options(gapscan_options INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(gapscan_options INTERFACE -fsanitize=address,undefined)
endif()
