/* The matching calls from C (compiled as C99): matchblas_match on a seeded
 * random graph in CSR arrays (both triangles, tied weights): every pair an
 * edge, mates symmetric, the report's weight and cardinality those of the
 * mates, suitor equal to greedy mate for mate; a b-matching within its b;
 * a marriage; communities (matchblas_cluster); the registry listing; statuses for an unknown algorithm, a bad
 * option and NULL arguments; the _free functions leave empty results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matchblas/matchblas.h"

static int failures = 0;
#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                       \
    }                                                                   \
  } while (0)

enum { N = 60 };
static int32_t ptr[N + 1], idx[N * N];
static double val[N * N];

static double weight_of(int u, int v) {
  for (int k = ptr[u]; k < ptr[u + 1]; ++k)
    if (idx[k] == v) return val[k];
  return -1;
}

int main(void) {
  unsigned long long state = 12345;
  int nnz = 0;
  ptr[0] = 0;
  static double w[N][N];
  for (int u = 0; u < N; ++u)
    for (int v = u + 1; v < N; ++v) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      w[u][v] = w[v][u] = (state >> 33) % 10 < 2 ? (double)(1 + (state >> 40) % 4) : 0;
    }
  for (int u = 0; u < N; ++u) {
    for (int v = 0; v < N; ++v)
      if (w[u][v] > 0) {
        idx[nnz] = v;
        val[nnz++] = w[u][v];
      }
    ptr[u + 1] = nnz;
  }
  matchblas_graph g;
  memset(&g, 0, sizeof g);
  g.source = MATCHBLAS_GRAPH_SPARSE;
  g.sparse.rows = g.sparse.cols = N;
  g.sparse.layout = MATCHBLAS_CSR;
  g.sparse.index_type = MATCHBLAS_INT32;
  g.sparse.value_type = MATCHBLAS_DOUBLE;
  g.sparse.pointers = ptr;
  g.sparse.indices = idx;
  g.sparse.values = val;

  matchblas_run_settings s;
  matchblas_default_run_settings(&s);
  s.threads = 1;
  matchblas_matching greedy, suitor;
  matchblas_match_report r;
  CHECK(matchblas_match(&g, "greedy", &s, &greedy, &r) == MATCHBLAS_OK);
  CHECK(r.status == MATCHBLAS_OK && strcmp(r.algo, "greedy") == 0 && greedy.vertices == N);
  double weight = 0;
  long long pairs = 0;
  for (int u = 0; u < N; ++u) {
    const int64_t v = greedy.mate[u];
    if (v < 0) continue;
    CHECK(v < N && greedy.mate[v] == u && weight_of(u, (int)v) > 0);
    if (u < v) {
      weight += weight_of(u, (int)v);
      ++pairs;
    }
  }
  CHECK(fabs(weight - r.weight) <= 1e-12 * weight && pairs == r.cardinality && pairs > 0);
  CHECK(matchblas_match(&g, "suitor", &s, &suitor, &r) == MATCHBLAS_OK);
  CHECK(memcmp(greedy.mate, suitor.mate, sizeof(int64_t) * N) == 0);
  matchblas_matching_free(&greedy);
  matchblas_matching_free(&suitor);
  CHECK(greedy.mate == NULL && greedy.vertices == 0);

  /* b-matching with b = 2: no vertex in more than two edges. */
  matchblas_b_matching bm;
  const int64_t two = 2;
  CHECK(matchblas_b_match(&g, "b-suitor", &two, 1, &s, &bm, &r) == MATCHBLAS_OK);
  CHECK(bm.vertices == N && bm.offsets[N] == 2 * bm.edges && r.cardinality == bm.edges);
  for (int v = 0; v < N; ++v) CHECK(bm.offsets[v + 1] - bm.offsets[v] <= 2);
  matchblas_b_matching_free(&bm);

  /* Marriage: both men prefer woman 0, who prefers man 1. */
  const int64_t mo[] = {0, 2, 4}, ml[] = {0, 1, 0, 1}, wo[] = {0, 2, 4}, wl[] = {1, 0, 1, 0};
  const matchblas_preferences p = {2, 2, mo, ml, wo, wl, NULL};
  matchblas_marriage m;
  CHECK(matchblas_marry(&p, "gale-shapley", &s, &m, &r) == MATCHBLAS_OK);
  CHECK(m.men == 2 && m.wife[1] == 0 && m.wife[0] == 1 && m.husband[0] == 1);
  matchblas_marriage_free(&m);

  /* Communities of the same graph (community.h): a label per vertex in
   * 0..communities-1, the hierarchy's first level over the N vertices. */
  matchblas_communities c;
  matchblas_cluster_report cr;
  CHECK(matchblas_cluster(&g, "louvain", NULL, &c, &cr) == MATCHBLAS_OK);
  CHECK(c.vertices == N && c.communities >= 1 && cr.communities == c.communities && cr.modularity > 0);
  for (int v = 0; v < N; ++v) CHECK(c.label[v] >= 0 && c.label[v] < c.communities);
  CHECK(c.levels >= 1 && c.level_offsets[0] == 0 && c.level_offsets[1] == N);
  matchblas_communities_free(&c);
  CHECK(c.label == NULL && c.hierarchy == NULL);
  CHECK(matchblas_cluster(&g, "suitor", NULL, &c, &cr) == MATCHBLAS_ERR_UNKNOWN_ALGORITHM && c.label == NULL);

  /* The registry. */
  int found = 0;
  for (int64_t i = 0; i < matchblas_algorithm_count(); ++i) {
    matchblas_algorithm_info info;
    CHECK(matchblas_algorithm(i, &info) == MATCHBLAS_OK);
    if (strcmp(info.name, "roma-sparse") == 0) {
      found = 1;
      CHECK(strcmp(info.problem, "matching") == 0 && info.available && info.n_options > 0);
      for (int64_t k = 0; k < info.n_options; ++k) {
        matchblas_option_info o;
        CHECK(matchblas_algorithm_option(i, k, &o) == MATCHBLAS_OK && o.name[0] != '\0');
      }
    }
  }
  CHECK(found);
  matchblas_algorithm_info none;
  CHECK(matchblas_algorithm(matchblas_algorithm_count(), &none) == MATCHBLAS_ERR_BAD_DIMENSION);

  /* Errors. */
  matchblas_matching bad;
  CHECK(matchblas_match(&g, "no-such-algorithm", &s, &bad, &r) == MATCHBLAS_ERR_UNKNOWN_ALGORITHM);
  CHECK(strstr(r.message, "no-such-algorithm") != NULL && bad.mate == NULL);
  const matchblas_option phases = {"phases", "x"};
  s.options = &phases;
  s.n_options = 1;
  CHECK(matchblas_match(&g, "roma-sparse", &s, &bad, &r) == MATCHBLAS_ERR_BAD_OPTION);
  s.n_options = 0;
  CHECK(matchblas_match(NULL, "greedy", &s, &bad, &r) == MATCHBLAS_ERR_NULL_ARGUMENT);
  CHECK(strcmp(matchblas_status_string(MATCHBLAS_ERR_UNKNOWN_ALGORITHM), "unknown algorithm") == 0);
  CHECK(strcmp(matchblas_version(), MATCHBLAS_VERSION_STRING) == 0);
  if (failures) return 1;
  printf("test_matching_c: all checks passed\n");
  return 0;
}
