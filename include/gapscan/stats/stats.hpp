#pragma once
// Stage 4, statistics: from each stream window, the gaps between consecutive lines, the
// timestamp resolution, and the pooled histograms of the whole run.
//
// Consumes: stream::StreamWindow. Produces: a GapSeries per window (the gaps in time
// order, dequantised for the log-domain tests) and a GapPool (log-linear histograms of all
// gaps and of request support, and a bounded reservoir of example gaps with their lines).
// Deliberately does not: decide what is significant (detect/).

#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stats/log_histogram.hpp>
