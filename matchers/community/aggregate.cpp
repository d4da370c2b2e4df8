// The Louvain levels' shared steps (aggregate.hpp).
#include "matchers/community/aggregate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <utility>

#include "lib/error.hpp"
#include "lib/fresh_vector.hpp"
#include "lib/interrupt.hpp"
#include "lib/omp_threads.hpp"
#include "ops/mirror_sums.hpp"
#include "ops/modularity.hpp"
#include "ops/transpose.hpp"

namespace matchblas::community {

namespace {

std::string entry(vertex_t r, vertex_t c) {
  return "entry (" + std::to_string(r + 1) + ", " + std::to_string(c + 1) + ")";
}

}  // namespace

double check_input(const Csr<double>& g, double resolution, int threads) {
  if (!(resolution > 0) || !std::isfinite(resolution))
    throw invalid_input("the resolution must be a positive number, got " + std::to_string(resolution));
  if (g.n_rows != g.n_cols)
    throw shape_error("community detection needs a square matrix, this one is " + std::to_string(g.n_rows) + " x " +
                      std::to_string(g.n_cols));
  ops::detail::expect_transposable(g);  // offsets, column range
  const auto bad_weight = [](double w) { return !(w >= 0) || !std::isfinite(w); };
  // One streaming pass: the first row with a bad weight, and the entries'
  // mirror sums (ops/mirror_sums.hpp: both 0 for a symmetric graph; an
  // asymmetric one leaves both at 0 with chance about 2^-128). Nonzero
  // sums, or a bad weight, go to the exact check below, which finds the
  // first bad row.
  vertex_t first_weight = g.n_rows;
  double largest = 0;
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads()) schedule(dynamic, 4096) \
    reduction(min : first_weight) reduction(max : largest)
  for (vertex_t u = 0; u < g.n_rows; ++u)
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      if (bad_weight(g.weights[e])) first_weight = std::min(first_weight, u);
      else largest = std::max(largest, g.weights[e]);
    }
  if (first_weight == g.n_rows && ops::mirror_sums(g, [](double w) { return w; }).zero()) return largest;
  const Csr<double> t = ops::transpose(g, ops::Backend::plain);
  // Row u's entries v != u, sorted, against the transpose's row u.
  const auto sorted_off_diagonal = [](const Csr<double>& a, vertex_t u, std::vector<std::pair<vertex_t, double>>& row) {
    row.clear();
    for (offset_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e)
      if (a.cols[e] != u) row.emplace_back(a.cols[e], a.weights[e]);
    if (!std::is_sorted(row.begin(), row.end())) std::sort(row.begin(), row.end());
  };
  // Rows u of g and of its transpose with the same off-diagonal entries, read
  // in step: true when both list them in strictly increasing column order
  // and they agree (the usual case, no copies); false leaves the decision
  // to the sorted copies.
  const auto equal_in_step = [&](vertex_t u) {
    offset_t i = g.offsets[u], j = t.offsets[u];
    const offset_t i_end = g.offsets[u + 1], j_end = t.offsets[u + 1];
    vertex_t previous = -1;
    for (;;) {
      while (i < i_end && g.cols[i] == u) ++i;
      while (j < j_end && t.cols[j] == u) ++j;
      if (i == i_end || j == j_end) return i == i_end && j == j_end;
      if (g.cols[i] != t.cols[j] || g.cols[i] <= previous || !(g.weights[i] == t.weights[j])) return false;
      previous = g.cols[i];
      ++i;
      ++j;
    }
  };
  // The rows in parallel; the first bad row (in order) is reported.
  vertex_t first_asymmetric = g.n_rows;
  first_weight = g.n_rows;
  AllocationGuard guard;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<std::pair<vertex_t, double>> row, mirror;
#pragma omp for schedule(dynamic, 1024) reduction(min : first_weight, first_asymmetric)
    for (vertex_t u = 0; u < g.n_rows; ++u) guard.run([&] {
      for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
        if (bad_weight(g.weights[e])) first_weight = std::min(first_weight, u);
      if (equal_in_step(u)) return;
      sorted_off_diagonal(g, u, row);
      sorted_off_diagonal(t, u, mirror);
      if (row != mirror) first_asymmetric = std::min(first_asymmetric, u);
    });
  }
  guard.rethrow();
  if (first_weight < g.n_rows) {
    const vertex_t u = first_weight;
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (bad_weight(g.weights[e]))
        throw invalid_input(entry(u, g.cols[e]) + " is " + std::to_string(g.weights[e]) +
                            ": community detection needs non-negative finite weights");
  }
  if (first_asymmetric < g.n_rows) {
    const vertex_t u = first_asymmetric;
    std::vector<std::pair<vertex_t, double>> row, mirror;
    sorted_off_diagonal(g, u, row);
    sorted_off_diagonal(t, u, mirror);
    std::size_t i = 0;
    while (i < row.size() && i < mirror.size() && row[i] == mirror[i]) ++i;
    const vertex_t v = i < row.size() ? row[i].first : mirror[i].first;
    throw invalid_input("the graph is not symmetric: " + entry(u, v) + " and " + entry(v, u) +
                        " differ (community detection takes undirected graphs)");
  }
  return largest;  // (the hash sums' rare false alarm on a graph that passed the exact check)
}

std::optional<Csr<double>> scaled_to_safe_range(const Csr<double>& g, double largest, int threads) {
  if (!(largest > 0)) return std::nullopt;
  const int exponent = std::ilogb(largest);
  if (exponent >= -256 && exponent <= 256) return std::nullopt;
  Csr<double> scaled;
  scaled.n_rows = g.n_rows;
  scaled.n_cols = g.n_cols;
  scaled.offsets = g.offsets;
  scaled.cols = g.cols;
  scaled.weights.resize(g.weights.size());
  const std::int64_t entries = std::int64_t(scaled.weights.size());
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads()) schedule(static)
  for (std::int64_t e = 0; e < entries; ++e) scaled.weights[std::size_t(e)] = std::ldexp(g.weights[std::size_t(e)], -exponent);
  return scaled;
}

vertex_t renumber(std::vector<vertex_t>& label) {
  vertex_t max_label = -1;
  for (vertex_t l : label) max_label = std::max(max_label, l);
  std::vector<vertex_t> id(std::size_t(max_label) + 1, no_vertex);
  vertex_t k = 0;
  for (vertex_t& l : label) {
    if (id[std::size_t(l)] == no_vertex) id[std::size_t(l)] = k++;
    l = id[std::size_t(l)];
  }
  return k;
}

Csr<double> aggregate(const Csr<double>& g, const std::vector<vertex_t>& label, vertex_t communities, int threads) {
  // Members of each community, in vertex order (a counting sort).
  std::vector<offset_t> first(std::size_t(communities) + 1, 0);
  for (vertex_t l : label) ++first[std::size_t(l) + 1];
  for (vertex_t c = 0; c < communities; ++c) first[std::size_t(c) + 1] += first[std::size_t(c)];
  std::vector<vertex_t> members(label.size());
  {
    std::vector<offset_t> next(first.begin(), first.end() - 1);
    for (vertex_t u = 0; u < vertex_t(label.size()); ++u) members[std::size_t(next[std::size_t(label[u])]++)] = u;
  }
  // Each community's row: its members' entries summed by target community
  // in a hash table (each sum in the entries' order), then the targets
  // sorted (each once).
  std::vector<std::vector<std::pair<vertex_t, double>>> rows(static_cast<std::size_t>(communities));
  const int t = threads > 0 ? threads : omp_get_max_threads();
  // Chunks of up to 256 communities, but at least 8 chunks a thread (here
  // and in the copy below): a level's last aggregation can hold a few dozen
  // communities of a million entries each (ER 2^20's third level: 44 of
  // 31M entries, which one chunk of 256 left to one thread).
  const vertex_t chunk = std::clamp<vertex_t>(communities / (8 * t), 1, 256);
  AllocationGuard guard;
#pragma omp parallel num_threads(t)
  {
    NeighbourWeights sums;
    std::vector<vertex_t> targets;
#pragma omp for schedule(dynamic, chunk)
    for (vertex_t c = 0; c < communities; ++c) guard.run([&] {
      offset_t entries = 0;
      for (offset_t i = first[std::size_t(c)]; i < first[std::size_t(c) + 1]; ++i)
        entries += g.offsets[members[std::size_t(i)] + 1] - g.offsets[members[std::size_t(i)]];
      sums.start(std::min<offset_t>(entries, communities));
      for (offset_t i = first[std::size_t(c)]; i < first[std::size_t(c) + 1]; ++i) {
        const vertex_t u = members[std::size_t(i)];
        const offset_t row_end = g.offsets[u + 1];
        for (offset_t e = g.offsets[u]; e < row_end; ++e) {
          if (e + 8 < row_end) __builtin_prefetch(&label[std::size_t(g.cols[e + 8])]);
          const vertex_t v = g.cols[e], d = label[std::size_t(v)];
          sums.add(d, d != c ? g.weights[e] : v == u ? g.weights[e] : g.weights[e] / 2);
        }
      }
      // The targets sorted as plain ids (sorting the (id, sum) pairs took
      // half of ER 2^18's first aggregation), their sums looked up after.
      targets.clear();
      sums.each([&](vertex_t d, double) { targets.push_back(d); });
      std::sort(targets.begin(), targets.end());
      std::vector<std::pair<vertex_t, double>>& row = rows[std::size_t(c)];
      row.reserve(targets.size());
      for (const vertex_t d : targets) row.emplace_back(d, sums.weight(d));
    });
  }
  guard.rethrow();
  Csr<double> a;
  a.n_rows = a.n_cols = communities;
  a.offsets.assign(std::size_t(communities) + 1, 0);
  for (vertex_t c = 0; c < communities; ++c)
    a.offsets[std::size_t(c) + 1] = a.offsets[std::size_t(c)] + offset_t(rows[std::size_t(c)].size());
  resize_fresh(a.cols, std::size_t(a.offsets.back()));  // (huge pages: the zero-fill's faults)
  resize_fresh(a.weights, a.cols.size());
#pragma omp parallel for num_threads(t) schedule(dynamic, chunk)
  for (vertex_t c = 0; c < communities; ++c) {
    offset_t e = a.offsets[std::size_t(c)];
    for (const auto& [d, w] : rows[std::size_t(c)]) {
      a.cols[std::size_t(e)] = d;
      a.weights[std::size_t(e++)] = w;
    }
  }
  return a;
}

MoveState singletons(const Csr<double>& g, double gamma) {
  std::vector<vertex_t> label(std::size_t(g.n_rows));
  for (vertex_t u = 0; u < g.n_rows; ++u) label[std::size_t(u)] = u;
  return from_labels(g, std::move(label), gamma);
}

MoveState from_labels(const Csr<double>& g, std::vector<vertex_t> label, double gamma) {
  MoveState s;
  s.label = std::move(label);
  s.k = ops::weighted_degrees(g);
  s.tot.assign(std::size_t(g.n_rows), 0.0);
  for (vertex_t u = 0; u < g.n_rows; ++u) {
    s.tot[std::size_t(s.label[std::size_t(u)])] += s.k[std::size_t(u)];
    s.two_m += s.k[std::size_t(u)];
  }
  s.gamma = gamma;
  return s;
}

void NeighbourWeights::start(offset_t degree) {
  std::size_t cap = 16;
  while (cap < 2 * std::size_t(degree) + 2) cap *= 2;
  if (cap > key_.size()) {
    key_.assign(cap, no_vertex);
    weight_.assign(cap, 0.0);
  }
  mask_ = key_.size() - 1;
  for (std::size_t slot : used_) key_[slot] = no_vertex;
  used_.clear();
}

double NeighbourWeights::weight(vertex_t c) const {
  std::size_t slot = home(c);
  while (key_[slot] != c) {
    if (key_[slot] == no_vertex) return 0.0;
    slot = (slot + 1) & mask_;
  }
  return weight_[slot];
}

void NeighbourWeights::add(vertex_t c, double w) {
  std::size_t slot = home(c);
  while (key_[slot] != no_vertex && key_[slot] != c) slot = (slot + 1) & mask_;
  if (key_[slot] == no_vertex) {
    key_[slot] = c;
    weight_[slot] = 0;
    used_.push_back(slot);
  }
  weight_[slot] += w;
}

namespace {

template <class Weights>
BestMove best_move_with(const Csr<double>& g, const MoveState& s, const std::vector<vertex_t>& size, vertex_t u,
                        Weights& weights) {
  const vertex_t own = s.label[std::size_t(u)];
  const double ku = s.k[std::size_t(u)];
  weights.start(g.offsets[u + 1] - g.offsets[u]);
  for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
    if (g.cols[e] != u) weights.add(s.label[std::size_t(g.cols[e])], g.weights[e]);
  const auto gain = [&](vertex_t c, double w) { return gain_times_2m(s, own, ku, c, w); };
  BestMove b;
  b.stay = gain(own, 0.0);
  weights.each([&](vertex_t c, double w) {
    if (c == own) {
      b.stay = gain(own, w);
      return;
    }
    const double x = gain(c, w);
    if (x > b.gain || (x == b.gain && (b.to == no_vertex || c < b.to))) {
      b.to = c;
      b.gain = x;
    }
  });
  b.improves = beats_staying(s, ku, b.gain, b.stay) && (b.to != no_vertex || size[std::size_t(own)] > 1);
  return b;
}

}  // namespace

BestMove best_move(const Csr<double>& g, const MoveState& s, const std::vector<vertex_t>& size, vertex_t u,
                   NeighbourWeights& weights) {
  return best_move_with(g, s, size, u, weights);
}

namespace {

// The communities' sizes and the ids without members, kept over moves made
// one at a time (local_moves, queue_moves, checked_moves); a vertex going
// alone takes the id freed last.
class Membership {
 public:
  explicit Membership(const MoveState& s) : size_(s.label.size(), 0) {
    for (vertex_t l : s.label) ++size_[std::size_t(l)];
    for (vertex_t c = vertex_t(size_.size()) - 1; c >= 0; --c)
      if (size_[std::size_t(c)] == 0) free_ids_.push_back(c);
  }
  const std::vector<vertex_t>& sizes() const { return size_; }
  // The community a move to `to` joins (no_vertex: the free id move takes).
  vertex_t joined(vertex_t to) const { return to == no_vertex ? free_ids_.back() : to; }
  // u moves to `to` (no_vertex: a community of its own).
  void move(MoveState& s, vertex_t u, vertex_t to) {
    const vertex_t own = s.label[std::size_t(u)];
    if (to == no_vertex) {
      to = free_ids_.back();
      free_ids_.pop_back();
    }
    if (--size_[std::size_t(own)] == 0) free_ids_.push_back(own);
    ++size_[std::size_t(to)];
    s.label[std::size_t(u)] = to;
    s.tot[std::size_t(own)] -= s.k[std::size_t(u)];
    s.tot[std::size_t(to)] += s.k[std::size_t(u)];
  }

 private:
  std::vector<vertex_t> size_, free_ids_;
};

// Moves one vertex at a time, each to its best_move when that improves.
class SequentialMoves {
 public:
  SequentialMoves(const Csr<double>& g, MoveState& s) : g_(g), s_(s), members_(s), weights_(g.n_rows) {}

  // Moves u when its best move improves: true, the modularity gained added
  // to *gained.
  bool visit(vertex_t u, double* gained) {
    const BestMove b = best_move_with(g_, s_, members_.sizes(), u, weights_);
    if (!b.improves) return false;
    *gained += (b.gain - b.stay) / s_.two_m;
    members_.move(s_, u, b.to);
    return true;
  }

 private:
  const Csr<double>& g_;
  MoveState& s_;
  Membership members_;
  DenseWeights weights_;
};

}  // namespace

vertex_t local_moves(const Csr<double>& g, MoveState& s, double threshold, int* passes) {
  if (s.two_m <= 0) return 0;
  SequentialMoves mover(g, s);
  const double m = s.two_m / 2;
  vertex_t moves = 0;
  for (;;) {
    check_interrupt();
    ++*passes;
    double gained = 0;
    vertex_t moved = 0;
    for (vertex_t u = 0; u < g.n_rows; ++u)
      if (mover.visit(u, &gained)) ++moved;
    moves += moved;
    if (moved == 0 || (threshold > 0 && gained / m < threshold)) break;
  }
  return moves;
}

MoveBounds::MoveBounds(vertex_t n)
    : margin_(std::size_t(n), std::numeric_limits<double>::infinity()),
      moved_w_(std::size_t(n), 0.0),
      own_tot_(std::size_t(n), 0.0),
      drift_at_(std::size_t(n), 0.0) {}

bool MoveBounds::cannot_improve(const MoveState& s, vertex_t v) const {
  const std::size_t i = std::size_t(v);
  const double kv = s.k[i];
  const double rise = std::max(0.0, s.tot[std::size_t(s.label[i])] - own_tot_[i]);
  const double bound = s.two_m * moved_w_[i] + s.gamma * kv * (rise + (drift_ - drift_at_[i]));
  const double slack = 1e-12 * std::max(1.0, s.gamma) * kv * s.two_m;  // best_move's
  return margin_[i] + bound <= slack / 2;
}

void MoveBounds::evaluated(const MoveState& s, vertex_t v, double best_gain, double stay) {
  const std::size_t i = std::size_t(v);
  margin_[i] = std::max(best_gain, 0.0) - stay;
  moved_w_[i] = 0;
  own_tot_[i] = s.tot[std::size_t(s.label[i])];
  drift_at_[i] = drift_;
}

void MoveBounds::moved(const Csr<double>& g, const MoveState& s, vertex_t u, vertex_t from) {
  margin_[std::size_t(u)] = std::numeric_limits<double>::infinity();
  const vertex_t to = s.label[std::size_t(u)];
  for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
    const vertex_t v = g.cols[e], own = s.label[std::size_t(v)];
    if (v == u) continue;
    const double w = g.weights[e] * double(int(to != own) + int(from == own));
#pragma omp atomic
    moved_w_[std::size_t(v)] += w;
  }
}

namespace {

// improving_vertices with the threads' tables given (a table per thread);
// with bounds, the vertices they show cannot improve are not evaluated.
// targets, when given, has n entries.
// sizes: the communities' sizes (null: counted here).
template <class Weights>
std::vector<vertex_t> improving_vertices_with(const Csr<double>& g, const MoveState& s, int t,
                                              std::vector<Weights>& tables, std::vector<vertex_t>* targets,
                                              MoveBounds* bounds = nullptr,
                                              const std::vector<vertex_t>* sizes = nullptr) {
  const vertex_t n = g.n_rows;
  std::vector<vertex_t> counted, out;
  if (s.two_m <= 0) return out;
  if (!sizes) {
    counted.assign(std::size_t(n), 0);
    for (vertex_t l : s.label) ++counted[std::size_t(l)];
    sizes = &counted;
  }
  const std::vector<vertex_t>& size = *sizes;
  std::vector<char> improves(static_cast<std::size_t>(n));
  AllocationGuard guard;
#pragma omp parallel num_threads(t)
  {
    auto& weights = tables[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1024)
    for (vertex_t u = 0; u < n; ++u)
      guard.run([&] {
        improves[std::size_t(u)] = 0;
        if (bounds && bounds->cannot_improve(s, u)) return;
        const BestMove b = best_move_with(g, s, size, u, weights);
        improves[std::size_t(u)] = b.improves;
        if (targets && b.improves) (*targets)[std::size_t(u)] = b.to;
        if (bounds) bounds->evaluated(s, u, b.gain, b.stay);
      });
  }
  guard.rethrow();
  // The improving vertices in order: blocks counted, then written, on the threads.
  const std::int64_t blocks = std::min<std::int64_t>(std::int64_t(t) * 4, std::max<std::int64_t>(1, n / 4096));
  const auto block_start = [&](std::int64_t b) { return vertex_t(std::int64_t(n) * b / blocks); };
  std::vector<std::size_t> at(std::size_t(blocks) + 1, 0);
#pragma omp parallel for num_threads(t) schedule(static) if (blocks > 1)
  for (std::int64_t b = 0; b < blocks; ++b)
    for (vertex_t u = block_start(b); u < block_start(b + 1); ++u) at[std::size_t(b) + 1] += improves[std::size_t(u)];
  for (std::int64_t b = 0; b < blocks; ++b) at[std::size_t(b) + 1] += at[std::size_t(b)];
  out.resize(at.back());
#pragma omp parallel for num_threads(t) schedule(static) if (blocks > 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    std::size_t k = at[std::size_t(b)];
    for (vertex_t u = block_start(b); u < block_start(b + 1); ++u)
      if (improves[std::size_t(u)]) out[k++] = u;
  }
  return out;
}

}  // namespace

std::vector<vertex_t> improving_vertices(const Csr<double>& g, const MoveState& s, int threads,
                                         std::vector<vertex_t>* targets) {
  const int t = threads > 0 ? threads : omp_get_max_threads();
  if (targets) targets->resize(std::size_t(g.n_rows), no_vertex);
  return with_thread_tables(g.n_rows, t,
                            [&](auto& tables) { return improving_vertices_with(g, s, t, tables, targets); });
}

vertex_t queue_moves(const Csr<double>& g, MoveState& s, const std::vector<vertex_t>& candidates,
                     bool neighbours) {
  if (s.two_m <= 0) return 0;
  SequentialMoves mover(g, s);
  std::vector<char> queued(std::size_t(g.n_rows), 0);
  std::deque<vertex_t> queue(candidates.begin(), candidates.end());
  for (vertex_t u : candidates) queued[std::size_t(u)] = 1;
  vertex_t moves = 0;
  double gained = 0;
  for (std::size_t visits = 0; !queue.empty(); ++visits) {
    if (visits % 65536 == 0) check_interrupt();
    const vertex_t u = queue.front();
    queue.pop_front();
    queued[std::size_t(u)] = 0;
    if (!mover.visit(u, &gained)) continue;
    ++moves;
    if (!neighbours) continue;
    for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vertex_t v = g.cols[e];
      if (!queued[std::size_t(v)]) {
        queued[std::size_t(v)] = 1;
        queue.push_back(v);
      }
    }
  }
  return moves;
}

bool follow_neighbours(std::size_t candidates, vertex_t n) {
  return candidates * follow_below < std::size_t(n);
}

vertex_t moves_until_none_improves(const std::function<std::vector<vertex_t>()>& check,
                                  const std::function<vertex_t(const std::vector<vertex_t>&)>& move, int* passes) {
  vertex_t moves = 0;
  for (;;) {
    check_interrupt();
    ++*passes;
    const std::vector<vertex_t> candidates = check();
    if (candidates.empty()) break;
    const vertex_t moved = move(candidates);
    if (moved == 0) break;  // the check and the moves round a tie apart: the moves' rule stands
    moves += moved;
  }
  return moves;
}

namespace {

// checked_moves with the communities' sizes kept by the caller.
// log (when set) notes every tot before it changes.
vertex_t checked_moves_with(const Csr<double>& g, MoveState& s, Membership& members,
                            const std::vector<vertex_t>& candidates, const std::vector<vertex_t>& targets,
                            const Colouring& colouring, int t, MoveBounds* bounds, TotLog* log = nullptr) {
  if (s.two_m <= 0 || candidates.empty()) return 0;
  // The candidates by colour, each class in their order (a counting sort).
  const std::size_t colours = colouring.classes.size();
  std::vector<std::size_t> at(colours + 1, 0);
  for (vertex_t u : candidates) ++at[std::size_t(colouring.colour[std::size_t(u)]) + 1];
  for (std::size_t c = 0; c < colours; ++c) at[c + 1] += at[c];
  std::vector<vertex_t> order(candidates.size());
  {
    std::vector<std::size_t> next(at.begin(), at.end() - 1);
    for (vertex_t u : candidates) order[next[std::size_t(colouring.colour[std::size_t(u)])]++] = u;
  }
  std::vector<double> w_own(order.size()), w_to(order.size());
  std::vector<std::pair<vertex_t, vertex_t>> movers;  // (vertex, its community before) of one class
  vertex_t moves = 0;
  for (std::size_t c = 0; c < colours; ++c) {
    const std::int64_t begin = std::int64_t(at[c]), end = std::int64_t(at[c + 1]);
    if (begin == end) continue;
    check_interrupt();
    // The weights into each candidate's community and its target, summed in
    // row order as best_move sums them.
#pragma omp parallel for num_threads(t) schedule(dynamic, 64) if (end - begin >= 512)
    for (std::int64_t i = begin; i < end; ++i) {
      const vertex_t u = order[std::size_t(i)], own = s.label[std::size_t(u)], to = targets[std::size_t(u)];
      double wo = 0, wt = 0;
      for (offset_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_t v = g.cols[e];
        if (v == u) continue;
        const vertex_t l = s.label[std::size_t(v)];
        if (l == own) wo += g.weights[e];
        else if (l == to) wt += g.weights[e];
      }
      w_own[std::size_t(i)] = wo;
      w_to[std::size_t(i)] = wt;
    }
    movers.clear();
    for (std::int64_t i = begin; i < end; ++i) {
      const vertex_t u = order[std::size_t(i)], own = s.label[std::size_t(u)];
      vertex_t to = targets[std::size_t(u)];
      // A target that the moves before emptied is a community of u's own
      // (gain 0, w_to being 0 then): its id is on the free list, which only
      // a move alone takes off (joined into as a target, it would stay
      // there for the next vertex going alone).
      if (to != no_vertex && members.sizes()[std::size_t(to)] == 0) to = no_vertex;
      if (to == own || (to == no_vertex && members.sizes()[std::size_t(own)] <= 1)) continue;
      const double ku = s.k[std::size_t(u)];
      const double stay = gain_times_2m(s, own, ku, own, w_own[std::size_t(i)]);
      const double gain = to == no_vertex ? 0.0 : gain_times_2m(s, own, ku, to, w_to[std::size_t(i)]);
      if (!beats_staying(s, ku, gain, stay)) continue;
      if (log) {
        log->note(s, own);
        log->note(s, members.joined(to));
      }
      members.move(s, u, to);
      movers.emplace_back(u, own);
    }
    moves += vertex_t(movers.size());
    if (bounds) {
      const std::int64_t count = std::int64_t(movers.size());
#pragma omp parallel for num_threads(t) schedule(dynamic, 64) if (count >= 512)
      for (std::int64_t i = 0; i < count; ++i)
        bounds->moved(g, s, movers[std::size_t(i)].first, movers[std::size_t(i)].second);
    }
  }
  return moves;
}

}  // namespace

vertex_t checked_moves(const Csr<double>& g, MoveState& s, const std::vector<vertex_t>& candidates,
                       const std::vector<vertex_t>& targets, const Colouring& colouring, int threads,
                       MoveBounds* bounds) {
  Membership members(s);
  const int t = threads > 0 ? threads : omp_get_max_threads();
  return checked_moves_with(g, s, members, candidates, targets, colouring, t, bounds);
}

vertex_t moves_to_local_optimum(const Csr<double>& g, MoveState& s, int threads, const Colouring& colouring,
                                int* passes) {
  // The threads' tables made once for every check (made per check, their
  // placement in memory moved the checks' time by 15-20% on ER 2^18).
  // The checks after the first evaluate only the vertices that MoveBounds
  // cannot rule out (the same lists as checks of every vertex); its drift
  // from check to check is the largest fall of a community's tot, from the
  // log of the tots the moves changed (no O(n) pass a check). The loop keeps
  // the communities' sizes too.
  const int t = threads > 0 ? threads : omp_get_max_threads();
  MoveBounds bounds(g.n_rows);
  TotLog log(g.n_rows);
  std::vector<vertex_t> targets(std::size_t(g.n_rows), no_vertex);
  Membership members(s);
  return with_thread_tables(g.n_rows, t, [&](auto& tables) {
    return moves_until_none_improves(
        [&] {
          bounds.drifted(log.largest_fall(s));
          return improving_vertices_with(g, s, t, tables, &targets, &bounds, &members.sizes());
        },
        [&](const std::vector<vertex_t>& candidates) {
          return checked_moves_with(g, s, members, candidates, targets, colouring, t, &bounds, &log);
        },
        passes);
  });
}

}  // namespace matchblas::community
