# cmake -P script: writes OUTPUT, a header defining GAPSCAN_COMMIT (the source tree's commit,
# "-dirty" when it has uncommitted changes; "unknown" outside a git checkout). The file is
# rewritten only when the value changes, so an unchanged commit rebuilds nothing.
execute_process(COMMAND git -C "${ROOT}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "#pragma once\n#define GAPSCAN_COMMIT \"${commit}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
