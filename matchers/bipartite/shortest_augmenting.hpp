// Minimum-cost matching of every row of an m-by-n cost matrix (m <= n, full
// row rank), with dual variables: the engine of MC64's jobs 4 and 5.
//   Algorithm: successive shortest augmenting paths. Start as MC64 does:
//   (square) each row's smallest cost r_i, then column duals
//   v_j = min_i (c_ij - r_i) (0 when m < n: a free column keeps v_j = 0
//   and every v_j <= 0), row duals u_i = min_j (c_ij - v_j), each
//   row matched to a free tight column, or to a tight column whose row can
//   move to another free tight column. Then, for every free row, a Dijkstra
//   search over the reduced costs c_ij - u_i - v_j >= 0 (an indexed binary
//   heap on columns, the columns at the current smallest distance kept
//   on a stack beside it as MC64's Q2; a matched column leads to its row),
//   stopped as soon as
//   no column left in the heap is closer than the best free column reached;
//   the duals of the settled columns and their rows move by the distances,
//   which keeps every reduced cost non-negative and the matched ones zero,
//   and the path is flipped. The searches may also start from given
//   feasible duals and a matching on tight entries (the warm start below:
//   the GPU auction's repair).
//   Source: I. S. Duff and J. Koster, "On algorithms for permuting large
//   entries to the diagonal of a sparse matrix", SIAM J. Matrix Anal. Appl.
//   22(4), 2001, sec. 4 (MC64's weighted algorithm, after the Hungarian
//   method of Kuhn 1955 with the sparse Dijkstra of Carpaneto, Martello and
//   Toth 1988; R. Jonker and A. Volgenant, "A shortest augmenting path
//   algorithm for dense and sparse linear assignment problems", Computing
//   38, 1987 for the initialisation by column and row minima).
//   Guarantee: exact. Every row is matched; the sum of the matched costs is
//   the minimum over all row-perfect matchings; on return c_ij - u_i - v_j
//   >= 0 for every entry (up to rounding) and = 0 on the matched entries.
//   Cost: O(m (nnz + n) log n) worst case; far less in practice (the
//   searches stop early and most rows are matched by the initialisation).
//   O(m + n) extra memory besides the result (and 16 bytes a column per
//   thread for the rounds below). On 4 or more threads the searches run in
//   rounds, several at a time, until the rounds take fewer than a quarter
//   of the threads' worth (shortest_augmenting_parallel.cpp), then one at
//   a time; the O(nnz) passes around them (row and column minima,
//   tightness, canonical_duals' shortest paths) run on OpenMP's threads
//   from 65536 entries on. Every result is the same, bit for bit,
//   on any number of threads.
#pragma once
#include <array>
#include <limits>
#include <optional>
#include <vector>

#include "lib/csr.hpp"
#include "matchers/bipartite/max_cardinality.hpp"

namespace matchblas {

struct DualMatching {
  BipartiteMates mates;
  std::vector<double> u;  // n_rows row duals
  std::vector<double> v;  // n_cols column duals
  double cost = 0;        // sum of the matched costs
  std::int64_t searches = 0;  // Dijkstra searches (rows the initialisation left free)
};

// `cost` holds finite costs (any sign). Throws invalid_input when some row
// cannot be matched (the matrix does not have full row rank: use
// min_cost_max_cardinality).
DualMatching min_cost_row_perfect(const Csr<double>& cost);

// The cold start on a square `cost` when it is nearly done: MC64's
// initialisation (feasible duals from the row and column minima, a greedy
// matching of the tight entries) and, when it leaves at most max_free rows
// free, the searches from those rows: the optimum as min_cost_row_perfect
// gives it. Nothing when the start leaves more rows free (its greedy pass
// stops there), the matrix is not square or has no perfect matching. The
// pre-pass tries it before its auction: where the largest entries already
// form a matching (a dominant diagonal: SPD and FEM matrices) the start costs
// three passes over the entries and the auction's phases several more. The
// costs are not checked here (the caller's are: a valid CSR of finite
// costs, as check_costs requires and prepass_costs gives). O(nnz) besides
// the searches.
std::optional<DualMatching> min_cost_row_perfect_if_start_near(const Csr<double>& cost, vertex_t max_free);

// Warm start: the same searches, from the free rows of `start` instead of
// from MC64's initialisation. start.u and start.v must be feasible (every
// reduced cost c_ij - u_i - v_j >= 0), start.mates a matching of tight
// entries only (reduced cost 0), both up to rounding (1e-12 of the largest
// |c_ij|, |u_i| and |v_j| together: the engine's own duals pass); with
// more columns than rows every v_j <= 0 and
// v_j = 0 on the free columns (those that may stay free). Exact as the cold
// start (the same invariant from the first search on); `searches` counts
// the rows it augmented. Throws invalid_input naming the row, column or
// entry that breaks a condition, or a row that cannot be matched.
DualMatching min_cost_row_perfect(const Csr<double>& cost, DualMatching start);

// The searches alone, from duals and a matching that the caller has made
// valid (start.u, start.v feasible and start.mates on tight entries, as
// min_cost_row_perfect(cost, start) requires; not checked here), the free
// rows in row order, a row without an augmenting path left free (it has
// none after later augmentations either; the columns its search reached
// are skipped from then on). On return start.mates is a maximum-cardinality
// matching of the start's rows and columns; its duals are feasible but on
// the entries into the skipped columns; false when some row stayed free.
bool augment_free_rows_unchecked(const Csr<double>& cost, DualMatching& start);

// The warm start from column duals v alone (any finite values: an
// auction's prices, negated into this sign) and any matching `start` of
// entries. On a square matrix (with lower_first) v is first lowered so
// that the start's pairs can be tight together (difference constraints
// solved by label correcting; a column lowered more than 64 times frees its
// row): right for prices epsilon-optimal on the start's pairs (an auction's
// that finished its phase), from which it keeps nearly every pair; prices
// far from that are better taken as they are. Then
// row duals u_i = min_j (c_ij - v_j), then v_j = min_i (c_ij - u_i)
// (feasible, and each tighter than the last); the pairs of `start` left
// tight (within 64 ulps of their terms) are kept, the others freed (with more columns than rows, v is first
// shifted to <= 0 and a free column's dual set to 0, row duals following);
// then min_cost_row_perfect(cost, that). Exact; O(nnz) besides the
// searches.
DualMatching min_cost_row_perfect_from_column_duals(const Csr<double>& cost, std::vector<double> v,
                                                    BipartiteMates start, bool lower_first = true);

// Canonical duals of a perfect matching d.mates of a square cost matrix,
// given any feasible duals d.u, d.v tight on it (an optimal matching has
// many): replaces them by the componentwise greatest column duals v that
// stay at or below MC64's first column duals v0_j = min_i (c_ij -
// min_k c_ik) and are feasible with the matching tight, with
// u_i = c_{i,M(i)} - v_{M(i)}. These depend on the matrix and the matching
// alone, not on the duals given (so job 5's scalings are the same from an
// auction's start as from MC64's), and they move v0 only where the
// matching forces it (MC64's own searches end at or below them).
// The constraints are v_j - v_{M(i)} <= c_ij - c_{i,M(i)} for every entry
// (i, j): a shortest-path problem, solved in the reduced costs of d (>= 0)
// from every column at once by label correcting in buckets of keys
// (delta-stepping) on OpenMP's threads, only the lowered columns searched.
// O(nnz) plus about one relaxation a lowered column.
void canonical_duals(const Csr<double>& cost, DualMatching& d);

// Minimum-cost matching among the maximum-cardinality matchings of any
// m-by-n cost matrix (rectangular or structurally singular). First the
// searches of min_cost_row_perfect on the smaller side, which succeed
// whenever that side can be matched whole (the usual case, with no separate
// maximum matching); when one fails, the rows and
// columns are split by the coarse Dulmage-Mendelsohn decomposition of a
// maximum matching into the horizontal, square and vertical blocks, which
// every maximum matching respects; each block is solved by
// min_cost_row_perfect (the vertical one transposed), and the blocks' duals
// are shifted by constants so that the entries between blocks keep
// non-negative reduced costs. Exact; duals feasible on every entry.
DualMatching min_cost_max_cardinality(const Csr<double>& cost);

// The same on GPU gpu.device (max_sum_gpu.cu): on a square matrix that the
// GPU's maximum matching (cardinality-gpu's phases) finds structurally
// nonsingular, an auction with epsilon-scaling on the GPU gives prices and
// a matching, repaired to the exact optimum on the device (primal-dual
// phases from every free row at once: dual_repair_gpu.cu) or, with
// host_repair, on the host (min_cost_row_perfect_from_column_duals); a
// device repair that stops short (rounding) hands its state to the host's
// searches. Rectangular and structurally
// singular matrices go to min_cost_max_cardinality on the host (after the
// GPU's check for the square ones). Exact as min_cost_max_cardinality (the
// same minimum cost; which optimal matching, and the duals, may differ).
// Throws error without a GPU (or in a build without CUDA), invalid_input
// for bad costs or options.
struct AuctionGpuOptions {
  std::int64_t max_rounds = 5000;  // bidding rounds per epsilon phase: the auction stops at a phase that needs more
  double ratio = 4;                // epsilon divided by this from phase to phase (> 1)
  // The last phase's epsilon as a fraction of the costs' span (largest -
  // smallest); 0: span / (4 n), at least 1e-9 of it.
  double final_epsilon = 0;
  // Costs above this are auctioned as this value (the repair takes the
  // true costs): a few huge costs (job 5's explicit zeros) would otherwise
  // set the span, hence epsilon, and raise prices, hence job 5's scalings.
  double cost_ceiling = std::numeric_limits<double>::infinity();
  // The last phase ends once at most this many rows are unassigned (the
  // auction's long tail: a few rows raising prices a step at a time), and
  // the repair matches them; so does every earlier phase while
  // earlier_tail_rows is 0 (its rows then go to the next phase). As
  // auction_tail_rows (auction_start.hpp) reads it: 0: m / 2000 (none below
  // 2000 rows); a negative value: none (the phase runs until every row is
  // assigned).
  std::int64_t tail_rows = 0;
  // The phases before the last end once at most this many rows are
  // unassigned, never more than the last: 0 as tail_rows (every phase
  // alike), else as tail_rows reads its value (the host auction's
  // earlier_tail_rows, auction_start.hpp).
  std::int64_t earlier_tail_rows = 0;
  // The repair on the host's shortest augmenting paths instead of the device.
  bool host_repair = false;
  // The device repair's phases at most (negative: no limit); rows still
  // free after them are matched by the host's searches (which also take
  // over from the auction's prices when the device's memory runs out).
  std::int64_t repair_phases = -1;
  // End with the canonical duals of a perfect matching of a square matrix
  // (canonical_duals: job 5's scalings), computed on the device where the
  // device repair finishes, else on the host.
  bool canonical_duals = false;
};
struct AuctionGpuReport {
  bool fell_back = false;  // rectangular or structurally singular: the host engine ran
  bool capped = false;     // a phase stopped at max_rounds with more than its tail of rows unassigned
  std::int64_t phases = 0, rounds = 0;
  vertex_t tail = 0;       // the rows the last phase may leave unassigned (options.tail_rows resolved)
  vertex_t assigned = 0;   // rows the auction left matched
  std::int64_t repaired = 0;  // rows the repair augmented (the host's: its searches)
  std::int64_t repair_phases = 0;  // the device repair's primal-dual phases
  std::int64_t repair_levels = 0;  // their label-correcting levels
  std::int64_t repair_rows_relaxed = 0;  // rows those levels relaxed
  std::int64_t repair_early_stops = 0;   // phases whose distances stopped once every free column was settled
  std::int64_t repair_maximum_matchings = 0;  // phases augmented by a maximum matching of the tight entries
                                              // (the paths along the shortest path trees under a quarter of the
                                              // free rows)
  // The device repair's seconds: feasible duals (the lowering), and its
  // phases' distances, dual changes with the tight entries, augmentations.
  std::array<double, 4> repair_steps_s{};
  bool host_repaired = false;  // the host's searches ran (host_repair; the device repair stopped short or ran out of memory)
  bool repair_out_of_memory = false;  // the device repair ran out of memory: the host's repaired from the prices
  bool canonical_on_device = false;  // the duals are canonical, made on the device (canonical_duals asked)
  double canonical_s = 0;          // seconds the device took for them
  double upload_s = 0;     // the matrix to the device
  double device_s = 0;     // the maximum-matching check and the auction, matrix on the device
  double check_s = 0;      // of device_s, the maximum-matching check
  double download_s = 0;   // the result (or the prices and matching for the host repair) back
  double repair_s = 0;     // the repair: on the device, plus the host's searches where they ran
  // The host's own stages (seconds): the input's checks and costs before
  // the GPU (prepare_s: prepass_gpu's part), the device and stream set-up,
  // and the result's objective, permutation and scalings after it.
  double prepare_s = 0, session_s = 0, finish_s = 0;
};
DualMatching min_cost_max_cardinality_gpu(const Csr<double>& cost, const AuctionGpuOptions& options = {},
                                          const GpuOptions& gpu = {}, AuctionGpuReport* report = nullptr);

}  // namespace matchblas
