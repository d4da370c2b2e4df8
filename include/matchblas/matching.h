/* matchblas's matching calls, C interface: run any algorithm of the
 * registry (`matchblas list`, or matchblas_algorithm below) on a graph given
 * as a sparse matrix in caller-owned arrays, a dense weight matrix, or a
 * Matrix Market file, with the algorithm's options by name; and the same for
 * b-matchings and stable marriages.
 *
 * Graphs come from matrices by the rules of the `matchblas` tool (README,
 * "Graph rules"): a square matrix is a general graph (vertex i = row i;
 * weight of {u, v} = max(|a_uv|, |a_vu|) after duplicates are summed; the
 * diagonal ignored; zero weights dropped; a pattern's entry gets a weight
 * drawn in (0, 1] from a fixed seed); a rectangular one the bipartite view
 * (row i is vertex i, column j vertex rows + j); a dense one, or a square
 * one with MATCHBLAS_VIEW_COMPLETE, a complete graph. Input is never
 * modified.
 *
 * Results are allocated by the library; free them with the matching _free
 * function (also after a failed call: it leaves them empty). Every call
 * returns a status (also in report->status, with a message naming what was
 * wrong): 0 ok, negative MATCHBLAS_ERR_* (common.h). Nothing aborts or
 * exits. Calls may run concurrently from several threads. */
#ifndef MATCHBLAS_MATCHING_H
#define MATCHBLAS_MATCHING_H

#include <stdint.h>

#include "matchblas/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MATCHBLAS_VIEW_AUTO = 0,      /* rectangular: bipartite; square sparse: general (or complete for an
                                   algorithm of complete graphs only, when every pair is listed); dense: complete */
  MATCHBLAS_VIEW_GENERAL = 1,
  MATCHBLAS_VIEW_BIPARTITE = 2,
  MATCHBLAS_VIEW_COMPLETE = 3
} matchblas_view;

typedef enum { MATCHBLAS_GRAPH_SPARSE = 0, MATCHBLAS_GRAPH_DENSE = 1, MATCHBLAS_GRAPH_FILE = 2 } matchblas_graph_source;

/* Where the graph comes from: one of the three sources. */
typedef struct {
  matchblas_graph_source source;
  matchblas_sparse sparse;          /* SPARSE: real or pattern values */
  int64_t dense_n;                  /* DENSE: an n x n row-major matrix, */
  int64_t dense_leading_dimension;  /*   row i at values + i * ld (0: n), */
  matchblas_value_type dense_type;  /*   MATCHBLAS_DOUBLE or MATCHBLAS_FLOAT */
  const void* dense_values;
  const char* path;                 /* FILE: Matrix Market, plain or gzip; "-" is standard input */
  matchblas_view view;
  int single_precision;             /* 1: the algorithm works in float; 0 (default): double */
} matchblas_graph;

/* One option of the algorithm, as on the command line without the dashes:
 * {"phases", "20"}; a flag takes NULL or "" as its value. */
typedef struct {
  const char* name;
  const char* value;
} matchblas_option;

typedef struct {
  const matchblas_option* options; /* the algorithm's own options (NULL: every default) */
  int64_t n_options;
  uint64_t seed;                   /* randomised algorithms; default 1 */
  int threads;                     /* CPU: OpenMP threads (0: all); GPU: threads per kernel (0: one per item) */
  int device;                      /* -1 (default): as named; 0: the CPU twin; 1: the GPU twin */
  int gpu;                         /* the CUDA device of GPU algorithms; default 0 */
} matchblas_run_settings;

void matchblas_default_run_settings(matchblas_run_settings* settings);

typedef struct {
  int status;
  char algo[64];            /* the algorithm that ran (the twin when `device` chose one) */
  char graph[16];           /* "general", "bipartite" or "complete"; "marriage" */
  int64_t vertices;         /* of the graph (bipartite: rows + cols); marriage: men */
  int64_t edges;            /* of the graph; marriage: acceptable pairs */
  int64_t bipartite_rows;   /* the bipartite view's rows (vertices >= it are columns); else 0 */
  double weight;            /* of the matching (b-matching: of its edges); marriage: 0 */
  int64_t cardinality;      /* matched pairs (b-matching: edges; marriage: couples) */
  int64_t phases;           /* the algorithm's phases where it has them (ROMA), else 0 */
  double setup_seconds;     /* reading the input and building the graph */
  double seconds;           /* the algorithm alone */
  char message[256];        /* "ok", or what was wrong and where */
} matchblas_match_report;

/* A matching: mate[u] is u's partner, -1 when u is free (vertices entries). */
typedef struct {
  int64_t vertices;
  int64_t* mate;
} matchblas_matching;

/* A b-matching: the partners of v are partners[offsets[v] .. offsets[v+1]),
 * ascending; each edge appears at both ends (2 * edges partners). */
typedef struct {
  int64_t vertices;
  int64_t edges;
  int64_t* offsets;
  int64_t* partners;
} matchblas_b_matching;

/* A stable marriage instance: man m's acceptable women, best first, are
 * men_lists[men_offsets[m] .. men_offsets[m+1]) (0-based), and woman w's men
 * women_lists[...]; a pair counts when each lists the other. Or a file in
 * the tool's format (`matchblas marriage-gen`), when path is not NULL. */
typedef struct {
  int64_t men;
  int64_t women;
  const int64_t* men_offsets;
  const int64_t* men_lists;
  const int64_t* women_offsets;
  const int64_t* women_lists;
  const char* path;
} matchblas_preferences;

/* wife[m] is man m's wife, husband[w] woman w's husband, -1 when single. */
typedef struct {
  int64_t men;
  int64_t women;
  int64_t* wife;
  int64_t* husband;
} matchblas_marriage;

/* Runs `algo` (a matching algorithm of the registry) on the graph. The
 * result is validated (every pair an edge, mate symmetric) before it is
 * returned. settings and report may be NULL. */
int matchblas_match(const matchblas_graph* graph, const char* algo, const matchblas_run_settings* settings,
                    matchblas_matching* result, matchblas_match_report* report);

/* A b-matching: every vertex v in at most b[v] edges (b_length = the
 * vertex count), or in at most b[0] (b_length = 1). single_precision: the
 * weights as floats (the greedy order of the floats; b-suitor-gpu then
 * compares offers as packed words). */
int matchblas_b_match(const matchblas_graph* graph, const char* algo, const int64_t* b, int64_t b_length,
                      const matchblas_run_settings* settings, matchblas_b_matching* result,
                      matchblas_match_report* report);

/* The man-optimal stable matching (checked stable before it is returned). */
int matchblas_marry(const matchblas_preferences* preferences, const char* algo,
                    const matchblas_run_settings* settings, matchblas_marriage* result,
                    matchblas_match_report* report);

void matchblas_matching_free(matchblas_matching* result);
void matchblas_b_matching_free(matchblas_b_matching* result);
void matchblas_marriage_free(matchblas_marriage* result);

/* The registry: every algorithm, in `matchblas list`'s order. Strings live
 * as long as the library. */
typedef struct {
  const char* name;
  const char* problem;      /* "matching", "b-matching", "stable marriage", "bipartite" (the pre-pass) or
                               "community detection" (community.h) */
  const char* family;       /* its folder: "general", "complete", ... */
  const char* device;       /* "cpu" or "gpu" */
  const char* twin;         /* the same algorithm on the other device, "" when none */
  const char* guarantee;    /* "greedy", "1/2", "2/3-eps", "exact", "maximal", "b-greedy", ... */
  const char* summary;      /* one line: the algorithm and its source */
  char graph_kinds[64];     /* "general,bipartite", ...; "preference lists"; "m x n matrices" */
  int deterministic;
  int threaded;             /* an OpenMP algorithm (settings.threads sets its threads) */
  int job;                  /* the pre-pass: MC64's job; else 0 */
  int available;            /* can run here (built, and a GPU present for GPU algorithms) */
  char unavailable[256];    /* why not, when not */
  int64_t n_options;
} matchblas_algorithm_info;

typedef struct {
  const char* name;
  const char* type;          /* "integer", "real", "word", "flag" or "bytes" (K/M/G/T suffixes) */
  const char* default_value; /* as text; "" for a flag */
  char words[256];           /* a word option's accepted words, comma-separated */
  double lo, hi;             /* an integer or real option's range */
  const char* help;
} matchblas_option_info;

int64_t matchblas_algorithm_count(void);
/* MATCHBLAS_ERR_BAD_DIMENSION when index is out of range. */
int matchblas_algorithm(int64_t index, matchblas_algorithm_info* info);
int matchblas_algorithm_option(int64_t index, int64_t option, matchblas_option_info* info);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_MATCHING_H */
