// ROMA and RAMA by 4-cycle augmentation; see roma.hpp.
#include "matchers/complete/roma.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include "lib/counter_rng.hpp"
#include "lib/error.hpp"
#include "lib/interrupt.hpp"
#include "matchers/complete/auction.hpp"
#include "matchers/common/greedy.hpp"

namespace matchblas {

namespace {

constexpr std::array<std::pair<std::string_view, RomaStart>, 6> start_names{{
    {"neighbour", RomaStart::neighbour},
    {"half", RomaStart::half},
    {"shuffled", RomaStart::shuffled},
    {"random", RomaStart::random},
    {"greedy", RomaStart::greedy},
    {"assignment", RomaStart::assignment},
}};

// Random streams of this file (rng::Stream's second argument).
constexpr std::uint64_t order_stream = 0x524F4D41;  // + phase: ROMA's vertex order
constexpr std::uint64_t rama_stream = 0x52414D41;   // RAMA's draws
constexpr std::uint64_t start_stream = 0x53544152;  // shuffled and random starts

// The matching and the weight of each vertex's matching edge, kept in step
// by every flip (so aug reads w[x, M[x]] from one vector, not from row x).
template <class W>
class FourCycles {
 public:
  FourCycles(const Dense<W>& g, std::vector<vertex_t> mate)
      : g_(g), mate_(std::move(mate)), mate_w_(g.n), changed_(std::size_t(g.n), -1) {
    for (vertex_t u = 0; u < g.n; ++u) mate_w_[u] = g(u, mate_[u]);
  }

  // Alg. 5: the best flip of u's matching edge with another one; done (Alg.
  // 4) when its gain exceeds min_gain, stamping its four vertices with
  // `phase`. True when u's edge was flipped.
  bool augment(vertex_t u, double min_gain, int phase) {
    const vertex_t v = mate_[u];
    const vertex_t n = g_.n;
    const W* wu = &g_.values[std::size_t(u) * n];
    const W* wv = &g_.values[std::size_t(v) * n];
    const W here = mate_w_[u];
    W gain = 0;
    vertex_t a = no_vertex, b = no_vertex;  // u's and v's new mates
    for (vertex_t x = 0; x < n; ++x) {
      const vertex_t y = mate_[x];
      if (x == u || x == v || !(x < y)) continue;
      const W current = here + mate_w_[x];
      const W w1 = wu[x] + wv[y], w2 = wu[y] + wv[x];
      if (w1 > w2 && w1 - current > gain) {
        gain = w1 - current;
        a = x;
        b = y;
      } else if (w2 - current > gain) {
        gain = w2 - current;
        a = y;
        b = x;
      }
    }
    if (a == no_vertex || !(double(gain) > min_gain)) return false;
    mate_[u] = a;
    mate_[a] = u;
    mate_[v] = b;
    mate_[b] = v;
    mate_w_[u] = mate_w_[a] = g_(u, a);
    mate_w_[v] = mate_w_[b] = g_(v, b);
    changed_[u] = changed_[a] = changed_[v] = changed_[b] = phase;
    return true;
  }

  // The last phase in which u's matching edge changed (-1: never).
  int changed_in(vertex_t u) const { return changed_[u]; }

  double weight() const {
    double sum = 0;
    for (vertex_t u = 0; u < g_.n; ++u)
      if (u < mate_[u]) sum += double(mate_w_[u]);
    return sum;
  }
  const std::vector<vertex_t>& mate() const { return mate_; }

 private:
  const Dense<W>& g_;
  std::vector<vertex_t> mate_;
  std::vector<W> mate_w_;
  std::vector<int> changed_;
};

// Runs `phases` phases of augment_phase(state, report) (which fills the
// report's flips and scanned) on the graph
// padded to even order; stops early after a phase without flips when
// stop_at_convergence. Returns the run with the matching on g's vertices.
template <class W, class Phase>
RomaRun run_phases(const Dense<W>& g, const RomaOptions& opt, bool stop_at_convergence, Phase augment_phase) {
  check_roma_options(opt);
  std::optional<Dense<W>> padded;
  if (g.n % 2 != 0) padded = padded_to_even(g);
  const Dense<W>& even = padded ? *padded : g;

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<vertex_t> start = roma_start_matching(even, opt.start, opt.seed, opt.auction);
  RomaRun run;
  run.start_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  FourCycles<W> state(even, std::move(start));
  run.start_weight = state.weight();
  for (int p = 0; p < opt.phases && even.n >= 4; ++p) {
    check_interrupt();
    const auto began = std::chrono::steady_clock::now();
    RomaPhase phase;
    phase.phase = p;
    augment_phase(state, phase);
    phase.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    phase.weight = state.weight();
    run.phases.push_back(phase);
    if (stop_at_convergence && phase.flips == 0) break;
  }
  run.matching = Matching(g.n);
  for (vertex_t u = 0; u < g.n; ++u) {
    const vertex_t m = state.mate()[u];
    run.matching.mate[u] = m < g.n ? m : no_vertex;  // the padding vertex is no partner
  }
  return run;
}

}  // namespace

RomaStart parse_roma_start(std::string_view name) {
  for (const auto& [n, s] : start_names)
    if (n == name) return s;
  throw invalid_input("unknown start matching '" + std::string(name) +
                      "' (known: neighbour, half, shuffled, random, greedy)");
}

RomaScan parse_roma_scan(std::string_view name) {
  if (name == "all") return RomaScan::all;
  if (name == "changed") return RomaScan::changed;
  if (name == "auto") return RomaScan::automatic;
  throw invalid_input("unknown ROMA scan '" + std::string(name) + "' (known: all, changed, auto)");
}

std::string to_string(RomaScan s) {
  return s == RomaScan::all ? "all" : s == RomaScan::changed ? "changed" : "auto";
}

std::string to_string(RomaStart s) {
  for (const auto& [n, x] : start_names)
    if (x == s) return std::string(n);
  return "?";
}

void check_roma_options(const RomaOptions& opt) {
  if (opt.phases < 0) throw invalid_input("ROMA: phases must be >= 0, got " + std::to_string(opt.phases));
  if (!(opt.min_gain >= 0) || !std::isfinite(opt.min_gain))
    throw invalid_input("ROMA: min-gain must be finite and >= 0, got " + std::to_string(opt.min_gain));
  check_auction_options(opt.auction);
}

std::vector<vertex_t> roma_start_matching(vertex_t n, RomaStart start, std::uint64_t seed) {
  MATCHBLAS_EXPECTS(!start_needs_weights(start),
                    "roma_start_matching: the " + to_string(start) + " start needs the weights");
  MATCHBLAS_EXPECTS(n % 2 == 0, "roma_start_matching: the order must be even (pad it first), got " +
                                    std::to_string(n));
  std::vector<vertex_t> mate(n, no_vertex);
  const auto pair = [&](vertex_t a, vertex_t b) {
    mate[a] = b;
    mate[b] = a;
  };
  const rng::Stream stream(seed, start_stream);
  switch (start) {
    case RomaStart::neighbour:
      for (vertex_t u = 0; u < n; u += 2) pair(u, u + 1);
      break;
    case RomaStart::half:
      for (vertex_t u = 0; u < n / 2; ++u) pair(u, u + n / 2);
      break;
    case RomaStart::shuffled: {
      std::vector<vertex_t> second(n / 2);
      std::iota(second.begin(), second.end(), n / 2);
      rng::shuffle(second, stream);
      for (vertex_t u = 0; u < n / 2; ++u) pair(u, second[u]);
      break;
    }
    case RomaStart::random: {
      std::vector<vertex_t> all(n);
      std::iota(all.begin(), all.end(), 0);
      rng::shuffle(all, stream);
      for (vertex_t i = 0; i < n; i += 2) pair(all[i], all[i + 1]);
      break;
    }
    case RomaStart::greedy:
    case RomaStart::assignment:
      break;
  }
  return mate;
}

template <class W>
std::vector<vertex_t> roma_start_matching(const Dense<W>& g, RomaStart start, std::uint64_t seed,
                                          const AuctionOptions& auction) {
  if (!start_needs_weights(start)) return roma_start_matching(g.n, start, seed);
  const vertex_t n = g.n;
  MATCHBLAS_EXPECTS(n % 2 == 0, "roma_start_matching: the order must be even (pad it first), got " +
                                    std::to_string(n));
  if (start == RomaStart::assignment) return assignment_matching(g, auction);
  const Matching m = greedy(g, 0);
  std::vector<vertex_t> mate = m.mate;
  vertex_t waiting = no_vertex;  // free vertices, paired in index order
  for (vertex_t u = 0; u < n; ++u) {
    if (mate[u] != no_vertex) continue;
    if (waiting == no_vertex) {
      waiting = u;
    } else {
      mate[waiting] = u;
      mate[u] = waiting;
      waiting = no_vertex;
    }
  }
  return mate;
}

template <class W>
RomaRun roma(const Dense<W>& g, const RomaOptions& opt) {
  std::vector<vertex_t> order;
  const RomaScan scan = scan_to_run(opt.scan, opt.start, g.n);
  return run_phases(g, opt, /*stop_at_convergence=*/true, [&](FourCycles<W>& state, RomaPhase& report) {
    const int p = report.phase;
    const vertex_t n = vertex_t(state.mate().size());
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    rng::shuffle(order, rng::Stream(opt.seed, order_stream + std::uint64_t(p)));
    report.flips = report.scanned = 0;
    for (vertex_t u : order)
      if (scan == RomaScan::all || changed_since_previous_phase(state.changed_in(u), p)) {
        report.flips += state.augment(u, opt.min_gain, p);
        ++report.scanned;
      }
  });
}

template <class W>
RomaRun rama(const Dense<W>& g, const RomaOptions& opt) {
  if (opt.scan == RomaScan::changed)
    throw invalid_input("rama augments random vertices; scan 'changed' is for roma and roma-gpu");
  const rng::Stream draws(opt.seed, rama_stream);
  return run_phases(g, opt, /*stop_at_convergence=*/false, [&](FourCycles<W>& state, RomaPhase& report) {
    const std::uint64_t n = state.mate().size();
    report.flips = 0;
    report.scanned = std::int64_t(n);
    for (std::uint64_t i = 0; i < n; ++i)
      report.flips += state.augment(vertex_t(draws.below(std::uint64_t(report.phase) * n + i, n)), opt.min_gain,
                                    report.phase);
  });
}

template RomaRun roma(const Dense<float>&, const RomaOptions&);
template RomaRun roma(const Dense<double>&, const RomaOptions&);
template RomaRun rama(const Dense<float>&, const RomaOptions&);
template RomaRun rama(const Dense<double>&, const RomaOptions&);
template std::vector<vertex_t> roma_start_matching(const Dense<float>&, RomaStart, std::uint64_t,
                                                   const AuctionOptions&);
template std::vector<vertex_t> roma_start_matching(const Dense<double>&, RomaStart, std::uint64_t,
                                                   const AuctionOptions&);

}  // namespace matchblas
