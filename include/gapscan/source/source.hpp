#pragma once
// Stage 1, sources: turns the user's inputs (files, folders, stdin) into streams of bytes
// and then into physical lines.
//
// Consumes: paths and "-" from the command line. Produces: Line values (a view of the
// line's bytes, its 1-based number and byte offset) one at a time, in input order.
// Deliberately does not: interpret timestamps or formats (parse/), or keep lines after
// handing them out: a Line's view is valid until the next call to LineReader::next().

#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/input.hpp>
#include <gapscan/source/line_reader.hpp>
