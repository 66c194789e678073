#pragma once
// Stage 7, report: one plain-data model of the run's results and the printers that render it.
//
// Consumes: ranked suspects, detection and line accounting, the inputs. Produces: a Report
// (build_report) and its renderings as text or JSON (docs/json-output.md).
// Deliberately does not: compute, filter or sort; build_report only copies and formats
// what the earlier stages decided, and printers only print the model.

#include <gapscan/report/build.hpp>
#include <gapscan/report/model.hpp>
#include <gapscan/report/printers.hpp>
