// b-Suitor over P parts of the vertices, exchanging in bulk (declared in
// matchers/b_matching/b_matching.hpp): the protocol the multi-GPU b-Suitor
// of Naim and Manne's b-matching paper runs ("Scalable b-matching on GPUs",
// 2017, in Naim's PhD thesis, University of Bergen: each GPU owns a part of
// the vertices and their rows; proposals to vertices owned elsewhere go
// between the GPUs in bulk), run here in one process: the reference for a
// distributed implementation's results and its exchange, and the volume
// model of bench/RESULTS.md.
//
// Parts: balanced blocks of consecutive vertices (datasets/distributed's
// balanced_blocks, as the distributed family partitions). A part holds its
// vertices' offers (Holders: cap(v) best offers, the root the floor) and
// its proposers' state, and a cache of every other vertex's floor (at
// first: empty when cap(v) > 0, else closed).
// A round: (1) each part runs its listed proposers (those with held < b(u),
// not spent) to their b(u) offers: each takes the next neighbour in its
// order of preference (rows sorted once, heaviest first, then the smaller
// id) whose floor, or cached floor, the offer beats; an offer to a vertex
// of the part goes in at once (its displaced proposer, if of the part, is
// listed for the next round; else told by a drop message); one to another
// part's vertex is counted held and queued for that part. (2) The proposals
// travel, one message per pair of parts; each owner takes them in order
// (the same test against the true floor; a refusal or a displacement is a
// drop message to the proposer's part, carrying the holder's floor). (3)
// The drops travel; each lowers its proposer's held count, lists it, and
// raises the proposer's part's cached floor of the holder. The rounds end
// when no part lists a proposer.
// Guarantee: exactly b_greedy's edge set for any P. A cached floor was the
// holder's floor once, and floors only rise, so a cache that refuses an
// offer speaks for the holder for good (the skip is final, as in b-Suitor's
// own scan); every offer is otherwise taken or dropped as b-Suitor takes or
// drops it, in some order, and b-Suitor's result does not depend on the
// order (Khan et al. 2016; Manne et al. 2016 sec. 3).
// Cost: O(E log d) to sort the rows, then b-Suitor's work; O(n) per part
// per round to list the proposers; O(n P) memory for the caches. Messages:
// 12 bytes a proposal (proposer, holder, 4-byte weight or rank), 16 a drop
// (proposer, holder, the holder's floor as one packed word), as the GPU
// exchange would send them.
#include <algorithm>
#include <string>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "lib/error.hpp"
#include "lib/greedy_order.hpp"
#include "matchers/b_matching/b_matching.hpp"
#include "matchers/b_matching/b_suitor_offers.hpp"

namespace matchblas {

using namespace b_suitor_detail;

namespace {

constexpr std::size_t proposal_bytes = 12, drop_bytes = 16;

// A proposal of u to v (weight w), and a drop of u's offer at v (with v's
// floor then).
template <class W>
struct Proposal {
  vertex_t u, v;
  W w;
};
template <class W>
struct Drop {
  vertex_t u, v;
  Offer<W> floor;
};

}  // namespace

template <class W>
BMatching b_suitor_parts(const Csr<W>& g, const std::vector<int>& b, int parts, PartsExchange* exchange) {
  detail::expect_b(g, b, "b_suitor_parts");
  if (parts < 1) throw invalid_input("b_suitor_parts: parts must be at least 1, got " + std::to_string(parts));
  const vertex_t n = g.n_rows;
  const std::size_t un = std::size_t(n);
  if (exchange) *exchange = PartsExchange{};
  if (n == 0) return BMatching{};
  const std::vector<vertex_t> first = balanced_blocks(g.offsets, parts);
  std::vector<int> owner(un);
  for (int p = 0; p < parts; ++p)
    for (vertex_t v = first[p]; v < first[p + 1]; ++v) owner[std::size_t(v)] = p;

  // Each row once in u's order of preference; next[u]: the entry u looks at next.
  std::vector<Offer<W>> rows(g.cols.size());
  for (vertex_t u = 0; u < n; ++u) {
    for (offset_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) rows[std::size_t(k)] = {g.weights[k], g.cols[k]};
    std::sort(rows.begin() + g.offsets[u], rows.begin() + g.offsets[u + 1], better<W>);
  }
  std::vector<offset_t> next(g.offsets.begin(), g.offsets.end() - 1);
  std::vector<int> held(un, 0);
  std::vector<char> spent(un, 0);

  Holders<W> holders(g, b);
  holders.init(g, b, false);
  // Every part's cached floors (a part's own entries unused): a vertex's
  // first floor, the empty offer or the closed one.
  std::vector<std::vector<Offer<W>>> cache(static_cast<std::size_t>(parts));
  for (auto& c : cache) {
    c.resize(un);
    for (vertex_t v = 0; v < n; ++v) c[std::size_t(v)] = holders.floor(v);
  }
  const auto floor_seen = [&](int p, vertex_t v) -> const Offer<W>& {
    return owner[std::size_t(v)] == p ? holders.floor(v) : cache[std::size_t(p)][std::size_t(v)];
  };

  std::vector<std::vector<Proposal<W>>> proposals(std::size_t(parts) * std::size_t(parts));
  std::vector<std::vector<Drop<W>>> drops(std::size_t(parts) * std::size_t(parts));
  const auto box = [&](auto& boxes, int from, int to) -> auto& {
    return boxes[std::size_t(from) * std::size_t(parts) + std::size_t(to)];
  };
  // v (of part q) drops offer x: its proposer loses it (of part q: at once;
  // else by a drop message with v's floor now).
  const auto dropped = [&](int q, vertex_t v, const Offer<W>& x) {
    if (!is_vertex(x.u, n)) return;
    if (owner[std::size_t(x.u)] == q) --held[std::size_t(x.u)];
    else box(drops, q, owner[std::size_t(x.u)]).push_back({x.u, v, holders.floor(v)});
  };

  if (exchange) exchange->first = first;
  for (long long round = 0;; ++round) {
    if (round > g.num_entries() + n + 1)
      throw error("b_suitor_parts: no progress after " + std::to_string(round) + " rounds");
    bool listed = false;
    // (1) Each part's proposers.
    for (int p = 0; p < parts; ++p)
      for (vertex_t u = first[p]; u < first[p + 1]; ++u) {
        const std::size_t iu = std::size_t(u);
        if (spent[iu] || held[iu] >= b[iu]) continue;
        listed = true;
        while (held[iu] < b[iu]) {
          offset_t& k = next[iu];
          const auto refused = [&](const Offer<W>& e) { return !better(Offer<W>{e.w, u}, floor_seen(p, e.u)); };
          while (k < g.offsets[u + 1] && refused(rows[std::size_t(k)])) ++k;
          if (k == g.offsets[u + 1]) {
            spent[iu] = 1;
            break;
          }
          const vertex_t v = rows[std::size_t(k)].u;
          const Offer<W> o{rows[std::size_t(k)].w, u};
          ++k;
          ++held[iu];
          if (owner[std::size_t(v)] == p) dropped(p, v, holders.insert(v, o));
          else box(proposals, p, owner[std::size_t(v)]).push_back({u, v, o.w});
        }
      }
    if (!listed) break;
    PartsRound r;
    std::vector<std::size_t> sent(std::size_t(parts), 0), received(std::size_t(parts), 0);
    // (2) The proposals, taken by their holders' parts.
    for (int from = 0; from < parts; ++from)
      for (int to = 0; to < parts; ++to) {
        auto& in = box(proposals, from, to);
        if (in.empty()) continue;
        ++r.messages;
        r.proposals += (long long)in.size();
        sent[std::size_t(from)] += in.size() * proposal_bytes;
        received[std::size_t(to)] += in.size() * proposal_bytes;
        for (const Proposal<W>& m : in) {
          const Offer<W> o{m.w, m.u};
          if (better(o, holders.floor(m.v))) dropped(to, m.v, holders.insert(m.v, o));
          else box(drops, to, from).push_back({m.u, m.v, holders.floor(m.v)});
        }
        in.clear();
      }
    // (3) The drops, taken by their proposers' parts.
    for (int from = 0; from < parts; ++from)
      for (int to = 0; to < parts; ++to) {
        auto& in = box(drops, from, to);
        if (in.empty()) continue;
        ++r.messages;
        r.drops += (long long)in.size();
        sent[std::size_t(from)] += in.size() * drop_bytes;
        received[std::size_t(to)] += in.size() * drop_bytes;
        for (const Drop<W>& m : in) {
          --held[std::size_t(m.u)];
          Offer<W>& c = cache[std::size_t(to)][std::size_t(m.v)];
          if (better(m.floor, c)) c = m.floor;  // floors only rise
        }
        in.clear();
      }
    for (int p = 0; p < parts; ++p) {
      r.bytes += sent[std::size_t(p)];
      r.most_sent = std::max(r.most_sent, sent[std::size_t(p)]);
      r.most_received = std::max(r.most_received, received[std::size_t(p)]);
    }
    if (exchange) exchange->rounds.push_back(r);
  }
  BMatching m;
  m.offsets.assign(un + 1, 0);
  mutual_offers(holders, n, m, nullptr);
  return m;
}

template BMatching b_suitor_parts(const Csr<float>&, const std::vector<int>&, int, PartsExchange*);
template BMatching b_suitor_parts(const Csr<double>&, const std::vector<int>&, int, PartsExchange*);

}  // namespace matchblas
