#pragma once
// Stage 6, catalog: the known causes, loaded from patterns/*.toml, and the matching that
// turns findings into ranked suspects.
//
// Consumes: detect::Finding values and the catalog files. Produces: Suspects, each a finding
// with the cause it most likely has (or "unknown"), the delay window it matches, the
// evidence found in the lines around its gaps, a confidence and a rank.
// Deliberately does not: detect anything (detect/) or format text (report/). All knowledge
// about causes lives in the data files; this code only reads and applies it.

#include <gapscan/catalog/cause.hpp>
#include <gapscan/catalog/loader.hpp>
#include <gapscan/catalog/matcher.hpp>
