#pragma once
// Stage 5, detection: turns gaps into findings with a significance.
//
// Consumes: stream windows (through Analyzer::add, which builds their GapSeries and feeds
// the GapPool). Produces: Findings, each a tight gap mode with its centre, spread, member
// count, the streams it appears in, its share of their wall time, a p-value, and example
// gaps with the lines around them.
// Deliberately does not: name causes (catalog/) or format anything (report/).

#include <gapscan/detect/analyzer.hpp>
#include <gapscan/detect/finding.hpp>
#include <gapscan/detect/mode_scan.hpp>
