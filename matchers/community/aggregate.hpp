// What the Louvain entries share (louvain.hpp): the input check, dense
// renumbering of labels, the graph of the communities, one vertex's best
// move, and the moves one at a time: whole passes (a level of louvain, its
// final refinement), a parallel check's moves re-checked in order (the
// final refinement of louvain-omp) or a queue after a parallel check
// (louvain-gpu's host moves).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "lib/csr.hpp"
#include "lib/types.hpp"
#include "matchers/community/colouring.hpp"

namespace matchblas::community {

// Throws invalid_input unless g is a consistent square CSR, symmetric (each
// row's entries, loops aside, mirrored with equal weights) with non-negative
// finite weights, and resolution > 0; the first bad row in order is the one
// reported. Symmetry by two hash sums over the entries in one streaming
// pass (an asymmetric graph passes with chance about 2^-128), then, only
// for a graph that fails, exactly against ops::transpose to name the row.
// O(entries) work (O(entries log degree) for a bad graph), on `threads`
// OpenMP threads (0: all). Returns the largest weight (0 without entries).
double check_input(const Csr<double>& g, double resolution, int threads);

// Modularity and every Louvain decision compare sums and products of
// weights (w 2m against k_u tot_c), so one factor on every weight changes
// none of them. A graph whose largest weight lies outside 2^-256..2^256,
// where those products would overflow or underflow (one edge of weight
// 1e308 makes 2m infinite; weights of 1e-170 make every product zero),
// comes back scaled by the power of two that brings that weight to [1, 2):
// exact for every weight that stays a normal number (one more than 2^1022
// below the largest becomes subnormal or 0: its share of the modularity is
// below 2^-1000). Null otherwise (the graph serves as it is, unchanged
// bits). O(entries) for a scaled copy.
std::optional<Csr<double>> scaled_to_safe_range(const Csr<double>& g, double largest, int threads);

// Renumbers label to 0..k-1 in the order of first appearance (vertex 0's
// community is 0); returns k.
vertex_t renumber(std::vector<vertex_t>& label);

// The graph whose vertex c is community c of label (0..communities-1):
// w(c, d) = sum of w(u, v) over u in c, v in d; a community's loop is the
// weight inside it, each edge once (an entry u != v counts half, a loop of
// u whole), so the weighted degrees are the communities' degree sums and
// the modularity of any coarser partition is unchanged. Rows sorted by
// column; the same graph at any thread count (each row summed in member
// order, by target in a hash table). O(n + entries + r log r) work for
// rows of r targets, communities in parallel.
Csr<double> aggregate(const Csr<double>& g, const std::vector<vertex_t>& label, vertex_t communities,
                      int threads);

// The state of local moves on one graph.
struct MoveState {
  std::vector<vertex_t> label;  // community per vertex (ids < n)
  std::vector<double> k;        // weighted degree per vertex
  std::vector<double> tot;      // degree sum per community
  double two_m = 0;
  double gamma = 1;
};
MoveState singletons(const Csr<double>& g, double gamma);
MoveState from_labels(const Csr<double>& g, std::vector<vertex_t> label, double gamma);

// The gain, times 2m, of a vertex of degree ku in community c, its weight
// into c being w; own is its community (whose tot counts it: less ku). Exact
// for integer weights and gamma. Every CPU decision (louvain_omp's rounds,
// best_move, checked_moves) uses it and beats_staying, so that a check's
// move and its re-check round alike.
inline double gain_times_2m(const MoveState& s, vertex_t own, double ku, vertex_t c, double w) {
  const double tot = c == own ? s.tot[std::size_t(c)] - ku : s.tot[std::size_t(c)];
  return w * s.two_m - s.gamma * tot * ku;
}

// Whether a move's gain beats staying's by more than the rounding slack
// (1e-12 max(1, gamma) k_u 2m: rounding, not a gain).
inline bool beats_staying(const MoveState& s, double ku, double gain, double stay) {
  return gain > stay + 1e-12 * std::max(1.0, s.gamma) * ku * s.two_m;
}

// The weight from one vertex into each neighbouring community: an
// open-addressing table sized to the vertex's degree, reused from vertex to
// vertex (O(degree) a vertex; each sum in the entries' order).
class NeighbourWeights {
 public:
  void start(offset_t degree);
  void add(vertex_t c, double w);
  template <class F>
  void each(F f) const {
    for (std::size_t slot : used_) f(key_[slot], weight_[slot]);
  }
  double weight(vertex_t c) const;  // the sum added for c since start (0 if none)

 private:
  std::size_t home(vertex_t c) const {  // c's first slot (a Fibonacci hash)
    return (std::uint64_t(std::uint32_t(c)) * 0x9e3779b97f4a7c15ULL >> 20) & mask_;
  }
  std::vector<vertex_t> key_;
  std::vector<double> weight_;
  std::vector<std::size_t> used_;
  std::size_t mask_ = 0;
};

// The weight from one vertex into each neighbouring community, an entry per
// community id (O(n) memory; faster than NeighbourWeights where one thread
// visits every vertex, and where a level's graph is small enough for one
// per thread). The same interface and order (communities as first met,
// each sum in the entries' order), so the same sums to the bit.
class DenseWeights {
 public:
  explicit DenseWeights(vertex_t n) : weight_(std::size_t(n), 0.0), seen_(std::size_t(n), 0) {}
  void start(offset_t) {
    for (vertex_t c : touched_) seen_[std::size_t(c)] = 0;
    touched_.clear();
  }
  void add(vertex_t c, double w) {
    if (!seen_[std::size_t(c)]) {
      seen_[std::size_t(c)] = 1;
      weight_[std::size_t(c)] = 0;
      touched_.push_back(c);
    }
    weight_[std::size_t(c)] += w;
  }
  template <class F>
  void each(F f) const {
    for (vertex_t c : touched_) f(c, weight_[std::size_t(c)]);
  }

 private:
  std::vector<double> weight_;
  std::vector<char> seen_;
  std::vector<vertex_t> touched_;
};

// f(tables) with a weight table per thread over n communities: dense ones
// where they take at most 2^25 bytes together (then they beat hashing: ER
// 2^18 on 2 threads, its second level of 69653 vertices and 8M entries
// 0.66 -> 0.49 s), hashed ones otherwise; the same sums either way. The
// tables are made here, outside any parallel region. Returns f's result.
template <class F>
auto with_thread_tables(vertex_t n, int threads, F&& f) {
  if (double(n) * double(sizeof(double) + 1) * double(threads) <= double(1 << 25)) {
    std::vector<DenseWeights> tables;
    tables.reserve(std::size_t(threads));
    for (int i = 0; i < threads; ++i) tables.emplace_back(n);
    return f(tables);
  }
  std::vector<NeighbourWeights> tables(static_cast<std::size_t>(threads));
  return f(tables);
}

// The change of modularity (ops/modularity.hpp's Q) over moves applied one
// after another, no two of them by neighbours (a colour class): a move of
// u, of degree k, from community a to community b, with w_a and w_b u's
// edge weights into them (its loop aside, which moves with it) and tot_a,
// tot_b their degree sums just before it, changes Q by
//   2 (w_b - w_a) / 2m  -  gamma ((tot_b + k)^2 - tot_b^2 + (tot_a - k)^2 - tot_a^2) / (2m)^2,
// the second bracket being 2 k (tot_b - tot_a + k). Saves a pass over the
// edges per round (louvain_omp); moves by neighbours at once would need the
// edges between them, so the rounds without a colouring recompute Q.
struct ModularityChange {
  double edges = 0, squares = 0;  // sums of w_b - w_a and of 2 k (tot_b - tot_a + k), in the moves' order
  // w_gained = w_b - w_a; tot_from = tot_a, tot_to = tot_b.
  void move(double w_gained, double k, double tot_from, double tot_to) {
    edges += w_gained;
    squares += 2 * k * (tot_to - tot_from + k);
  }
  double value(double two_m, double gamma) const {
    return two_m > 0 ? 2 * edges / two_m - gamma * squares / (two_m * two_m) : 0.0;
  }
};

// The tots of the communities that moves changed, as they were before the
// first such move since the last clear, without a copy of every tot: the
// largest fall since then (louvain-omp's checked moves' drift), or every
// changed tot put back to its bits (a losing round undone). O(n) memory,
// O(1) a note, O(communities noted) a query.
class TotLog {
 public:
  explicit TotLog(vertex_t n) : logged_(std::size_t(n), 0), before_(std::size_t(n)) {}
  void note(const MoveState& s, vertex_t c) {  // before c's tot changes
    if (logged_[std::size_t(c)]) return;
    logged_[std::size_t(c)] = 1;
    before_[std::size_t(c)] = s.tot[std::size_t(c)];
    changed_.push_back(c);
  }
  // The largest fall (at least 0) since the last clear; clears.
  double largest_fall(const MoveState& s) {
    double fall = 0;
    for (vertex_t c : changed_) fall = std::max(fall, before_[std::size_t(c)] - s.tot[std::size_t(c)]);
    clear();
    return fall;
  }
  // Every noted tot back to its value before; clears.
  void restore(MoveState& s) {
    for (vertex_t c : changed_) s.tot[std::size_t(c)] = before_[std::size_t(c)];
    clear();
  }
  void clear() {
    for (vertex_t c : changed_) logged_[std::size_t(c)] = 0;
    changed_.clear();
  }

 private:
  std::vector<char> logged_;
  std::vector<double> before_;
  std::vector<vertex_t> changed_;
};

// What lets a Louvain entry skip deciding a vertex that cannot improve,
// with the same decisions as deciding every vertex (moves_to_local_optimum's
// checks; louvain_omp's rounds gained nothing from it on ER and R-MAT 2^18,
// bench/RESULTS.md). Per vertex: the margin of its last
// evaluation (its best other gain, at least 0, less that of staying; +inf
// before one and after it moved), the weight W of its neighbours' moves
// since, its community's tot then, and the drift then. The drift: the sum,
// over the stretches between the caller's drifted() calls, of the largest
// fall of any community's tot in each. Its margin now is at most that
// margin plus 2m W (a neighbour's move a -> b shifts its edge's weight from
// a to b: b's gain up when b is not v's community, staying down when a is;
// W sums the edge once or twice by that; a community that becomes a
// neighbour gains at most the edge) plus gamma k_v times its community's
// tot's rise (staying down) and the drift since (a community's tot fell by
// at most that: its gain up). Where that is at most half best_move's
// rounding slack (1e-12 max(1, gamma) k_v 2m), it does not improve (the
// rounding of a row's weight sums, a few ulps of k_v 2m for rows of up to
// thousands of entries, stays far inside the other half).
// O(n) memory; O(1) a question, O(degree) a move.
class MoveBounds {
 public:
  explicit MoveBounds(vertex_t n);
  // Whether v cannot improve now (s: the state now).
  bool cannot_improve(const MoveState& s, vertex_t v) const;
  // v evaluated under s: its best other community's gain and staying's
  // (times 2m, as BestMove's).
  void evaluated(const MoveState& s, vertex_t v, double best_gain, double stay);
  // u moved from `from` to its label in s (s after the move). Safe to call
  // for several movers at once, none a neighbour of another (atomic sums).
  void moved(const Csr<double>& g, const MoveState& s, vertex_t u, vertex_t from);
  // The largest fall of a community's tot since the last call (or since
  // the first evaluation).
  void drifted(double fall) { drift_ += fall; }

 private:
  std::vector<double> margin_, moved_w_, own_tot_, drift_at_;
  double drift_ = 0;
};

// u's best move under s (louvain.hpp's rule): the neighbouring community of
// the largest gain (times 2m), ties to the smallest label, or (to =
// no_vertex) one of its own at gain 0, which loses ties to a neighbouring
// one; `improves` when that beats staying by more than the rounding slack
// and is a move (alone needs another member in u's community: size is
// per community). O(degree of u).
struct BestMove {
  vertex_t to = no_vertex;
  double gain = 0, stay = 0;
  bool improves = false;
};
BestMove best_move(const Csr<double>& g, const MoveState& s, const std::vector<vertex_t>& size, vertex_t u,
                   NeighbourWeights& weights);

// Passes over the vertices in order 0..n-1, each moved to its best_move
// when that improves, until a pass gains less modularity than `threshold`
// (0: until a pass moves nothing). Returns the moves; adds the passes to
// *passes.
vertex_t local_moves(const Csr<double>& g, MoveState& s, double threshold, int* passes);

// The vertices whose best_move improves, in order (nothing moves); on
// `threads` OpenMP threads (0: all). With targets: resized to n, and each
// improving vertex's entry set to its best_move's `to`. O(n + entries).
std::vector<vertex_t> improving_vertices(const Csr<double>& g, const MoveState& s, int threads,
                                         std::vector<vertex_t>* targets = nullptr);

// Moves from a queue that starts as `candidates` (in their order): each
// vertex taken from the front moves when its best_move improves, and then
// (with `neighbours`) its neighbours not already queued join the back.
// Ends when the queue is empty; returns the moves. O(sum of the visited
// vertices' degrees).
vertex_t queue_moves(const Csr<double>& g, MoveState& s, const std::vector<vertex_t>& candidates,
                     bool neighbours);

// Whether queue_moves should follow the movers' neighbours after a check
// that found `candidates` of n vertices improving: only when they are
// fewer than n / follow_below. With many candidates a new check of every
// vertex (in parallel) costs less than visiting the movers' neighbours one
// at a time (bench/RESULTS.md: R-MAT 2^22 took 9.2 s following them).
inline constexpr std::size_t follow_below = 64;
bool follow_neighbours(std::size_t candidates, vertex_t n);

// Moves the candidates (each vertex at most once), colour class by colour
// class of `colouring` (a colouring of g: greedy_colouring) and in their
// order within a class, each to its target from a check (improving_vertices'
// targets; no_vertex: a community of its own, when it has company) when that
// move still beats staying by best_move's rounding slack under the moves
// before it. A class's candidates recount their weights into their community
// and the target from their rows at once (on `threads` threads: no two are
// neighbours, so no move of the class changes them), in best_move's order
// of sums, so the first candidate moves exactly as the check found; then
// each is kept or not in turn against the tots as they are then (a target
// that the moves before emptied counts as a community of its own). Each
// kept move so raises modularity. Tells bounds (when set) of every move.
// Returns the moves. O(sum of the candidates' degrees) work in parallel,
// O(n + number of candidates + colours) on one thread (the communities'
// sizes counted; moves_to_local_optimum keeps them from call to call).
vertex_t checked_moves(const Csr<double>& g, MoveState& s, const std::vector<vertex_t>& candidates,
                       const std::vector<vertex_t>& targets, const Colouring& colouring, int threads,
                       MoveBounds* bounds = nullptr);

// The final refinement's loop: until `check` finds no improving vertex,
// `move` works from the vertices it found and returns its moves. The
// guarantee is the check's: the loop ends when it finds none, or when
// `move` moves none of them (a rounding tie between the two; never for
// louvain_omp, whose checked_moves repeats its check's arithmetic). Each check adds one to
// *passes. Returns the moves.
vertex_t moves_until_none_improves(const std::function<std::vector<vertex_t>()>& check,
                                  const std::function<vertex_t(const std::vector<vertex_t>&)>& move, int* passes);

// The final refinement of louvain_omp: until no vertex improves, the
// improving vertices and their best moves (in parallel; the vertices that
// MoveBounds rules out skipped) and checked_moves of them by the classes
// of `colouring` (g's). The same local optimum guarantee as local_moves
// with threshold 0 (the check decides when it ends; checked_moves only does
// the work, and always moves the first candidate); each check adds one to
// *passes. Returns the moves. The same partition at any thread count.
vertex_t moves_to_local_optimum(const Csr<double>& g, MoveState& s, int threads, const Colouring& colouring,
                                int* passes);

}  // namespace matchblas::community
