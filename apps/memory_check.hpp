// The commands' memory checks, made before they allocate: each estimates the
// command's peak from what is known before the data is read (a Matrix
// Market header, a marriage instance's MEN and WOMEN, gen's KIND and N) and
// the chosen algorithm's registry entry (MatcherInfo::memory), and refuses
// with one line, out_of_memory "FILE: COMMAND needs about X of memory (...),
// Y available (SOURCE; ...)", when it does not fit what lib/memory_budget.hpp
// finds available (MATCHBLAS_MEMORY_AVAILABLE=BYTES overrides it). A
// command's peak is the largest of its phases: reading (the reader's
// vectors), building (the matrix still held, plus the builder's arrays,
// lib/graph_from_matrix.hpp) and running (the graph plus the matcher's
// bytes per vertex and per edge). Counts from a header are upper bounds
// (every stored entry an edge; duplicates not merged).
#pragma once
#include <string>

#include "datasets/generators.hpp"
#include "datasets/load.hpp"
#include "lib/mmio.hpp"
#include "matchers/registry.hpp"

namespace matchblas::cli {

// The graph kind `view` makes of a file with header h for an algorithm of
// `kinds` (datasets/load.hpp's auto: bipartite when rectangular, complete
// for an array file, and for a coordinate file only when the algorithm takes
// complete graphs alone and the file can list every pair).
GraphKind expected_kind(const MmHeader& h, GraphView view, unsigned kinds);

// The peak bytes of reading a file with header h, building its graph of
// `kind` and running m (null: building only) on it, with extra_per_vertex
// bytes beside the graph (bmatch's b values).
double graph_command_bytes(const MmHeader& h, GraphKind kind, Precision precision, const MatcherInfo* m,
                           double extra_per_vertex = 0);

// match, bmatch (extra_per_vertex: its b values) and eval's children: the
// check of graph_command_bytes; throws out_of_memory naming the file.
void check_graph_memory(const std::string& file, const MmHeader& h, GraphView view, Precision precision,
                        const MatcherInfo& m, double extra_per_vertex = 0);
// perm: the matrix as given (matrix_as_given) and the pre-pass entry m.
void check_prepass_memory(const std::string& file, const MmHeader& h, const MatcherInfo& m);
// cluster: the graph of community_graph and the community entry m.
void check_community_memory(const std::string& file, const MmHeader& h, const MatcherInfo& m);
// marry: the instance (MEN and WOMEN from its header, `entries` list entries
// when known: 0 at the header, the count after reading), its ranked lists and m.
void check_marriage_memory(const std::string& file, vertex_t men, vertex_t women, double entries,
                           const MatcherInfo& m);
// gen: generating, and the matrix written from the graph.
void check_gen_memory(const GeneratorKind& kind, vertex_t n, const GenOptions& opt);

}  // namespace matchblas::cli
