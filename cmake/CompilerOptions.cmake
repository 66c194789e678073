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
