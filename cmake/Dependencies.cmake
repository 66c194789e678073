# Every dependency comes from a Debian 12 package; nothing is downloaded at configure time.
# scripts/setup.sh installs the packages named in the messages below.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

# RE2 ships only a pkg-config file on Debian 12 (libre2-dev).
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
add_library(gapscan::re2 ALIAS PkgConfig::RE2)

find_package(fmt 9 REQUIRED)                        # libfmt-dev
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)  # libboost-program-options-dev
find_package(Eigen3 3.4 REQUIRED NO_MODULE)         # libeigen3-dev
find_package(simdjson 3 REQUIRED)                   # libsimdjson-dev
find_package(tomlplusplus 3 REQUIRED)               # libtomlplusplus-dev
find_package(nlohmann_json 3.10 REQUIRED)           # nlohmann-json3-dev
find_package(ZLIB REQUIRED)                         # zlib1g-dev
find_package(BZip2 REQUIRED)                        # libbz2-dev
find_package(LibLZMA REQUIRED)                      # liblzma-dev
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)  # libzstd-dev
add_library(gapscan::zstd ALIAS PkgConfig::ZSTD)
# gzip through ISA-L's igzip when it is there (libisal-dev): about twice zlib's speed; zlib
# otherwise (GAPSCAN_ISAL=OFF forces zlib, e.g. to compare the two).
option(GAPSCAN_ISAL "Decode gzip with ISA-L's igzip when libisal-dev is installed" ON)
add_library(gapscan_gzip INTERFACE)
if(GAPSCAN_ISAL)
  pkg_check_modules(ISAL IMPORTED_TARGET libisal)
endif()
if(ISAL_FOUND)
  target_link_libraries(gapscan_gzip INTERFACE PkgConfig::ISAL)
  target_compile_definitions(gapscan_gzip INTERFACE GAPSCAN_HAVE_ISAL=1)
endif()
# date/tz is not linked into gapscan: the zone test and bench/zone_bench check gapscan's own
# zone reader against it (docs/formats.md says why gapscan keeps its own).
find_package(date 3 CONFIG REQUIRED)                # libhowardhinnant-date-dev
if(GAPSCAN_BUILD_TESTS)
  find_package(Catch2 2.13 REQUIRED)                # catch2 (v2 on Debian 12)
endif()
