/* matchblas's community detection, C interface: runs a community detection
 * algorithm of the registry (`louvain`, `louvain-omp`, `louvain-gpu`:
 * matchblas_algorithm lists them with problem "community detection") on a
 * graph given as in matching.h (a sparse matrix in caller-owned arrays, a
 * dense matrix or a Matrix Market file; coordinate arrays below), with the
 * algorithm's options by name ({"resolution", "2"}, ...).
 *
 * The graph of a square matrix for community detection (README, "Graph
 * rules"): vertex i = row i; weight of {u, v} = max(a_uv, a_vu) after
 * duplicates are summed, the values as given (a negative one is refused,
 * naming the entry); a pattern's entries weigh 1; the diagonal ignored. The
 * graph's view and single_precision fields are not used.
 *
 * The result is validated (a label 0..communities-1 per vertex, each
 * community with a member, the modularity recomputed) before it is
 * returned; free it with matchblas_communities_free (also after a failed
 * call: it leaves it empty). Every call returns a status (also in
 * report->status, with a message): 0 ok, negative MATCHBLAS_ERR_*
 * (common.h). Nothing aborts or exits. */
#ifndef MATCHBLAS_COMMUNITY_H
#define MATCHBLAS_COMMUNITY_H

#include <stdint.h>

#include "matchblas/common.h"
#include "matchblas/coordinate.h"
#include "matchblas/matching.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int status;
  char algo[64];            /* the algorithm that ran (the twin when settings.device chose one) */
  int64_t vertices;
  int64_t edges;            /* undirected edges of the graph, loops aside */
  double resolution;        /* gamma */
  double modularity;        /* of the communities at that resolution */
  int64_t communities;
  int64_t levels;           /* of the hierarchy */
  int64_t refine_moves;     /* moves of single vertices after the levels */
  double setup_seconds;     /* reading the input and building the graph */
  double seconds;           /* the algorithm alone */
  char message[256];        /* "ok", or what was wrong and where */
} matchblas_cluster_report;

/* label[v]: vertex v's community, 0..communities-1 (vertices entries).
 * The hierarchy: level l's graph has level_vertices[l] vertices (level 0:
 * the input's), and its vertex v went to community
 * hierarchy[level_offsets[l] + v], a vertex of level l + 1 (levels
 * entries in level_vertices; levels + 1 in level_offsets). The final moves
 * of single vertices after the levels are in label, not in the hierarchy. */
typedef struct {
  int64_t vertices;
  int64_t communities;
  int64_t* label;
  int64_t levels;
  int64_t* level_offsets;
  int64_t* hierarchy;
} matchblas_communities;

/* Communities of the graph by `algo` (a community detection algorithm of
 * the registry). settings (threads, device, gpu, options) and report may
 * be NULL. */
int matchblas_cluster(const matchblas_graph* graph, const char* algo, const matchblas_run_settings* settings,
                      matchblas_communities* result, matchblas_cluster_report* report);
int matchblas_cluster_coordinate(const matchblas_coordinate_graph* graph, const char* algo,
                                 const matchblas_run_settings* settings, matchblas_communities* result,
                                 matchblas_cluster_report* report);

void matchblas_communities_free(matchblas_communities* result);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_COMMUNITY_H */
