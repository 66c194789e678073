#pragma once
// Stage 2, parse: turns physical lines into records.
//
// Consumes: source::Line values of one input. Produces: for each line a LineClass
// (record, continuation, blank or unparsed) and, for records, a Record holding the
// instant, the group key (request id) and views of the message fields.
// Deliberately does not: group records (stream/), keep lines, or print anything. Built-in
// formats are hand-written scanners; no regular expression runs per line for them.

#include <gapscan/parse/format.hpp>
#include <gapscan/parse/record.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/parse/timestamp.hpp>
