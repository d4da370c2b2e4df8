// The check of a b-matching held over MPI ranks (declared in
// matchers/b_matching/b_matching.hpp), independent of the matcher that made
// it: each rank checks its rows (at most b(v) partners, strictly ascending
// ids, each an edge of v's row and not v) and asks the owner of every
// partner on another rank whether that partner lists v back (one
// MPI_Alltoallv of id pairs); the first violation and the totals are
// agreed over the ranks.
// Cost: O(m_r log b + k log b) per rank for its m_r entries and k matched
// entries, one exchange of 8 bytes per matched entry that crosses ranks.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "datasets/distributed/dist_graph.hpp"
#include "datasets/distributed/mpi_world.hpp"
#include "lib/error.hpp"
#include "matchers/b_matching/b_matching.hpp"

namespace matchblas {

namespace {

std::vector<int> starts_of(const std::vector<int>& counts) {
  std::vector<int> at(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) at[i] = at[i - 1] + counts[i - 1];
  return at;
}

// This rank's violation ("" when none); fills the pairs to ask other ranks
// about (grouped by the partner's owner) and the totals of the edges whose
// smaller id is this rank's.
std::string check_rows(const DistGraph& g, const std::vector<int>& b, const BMatching& part,
                       std::vector<std::vector<vertex_t>>& ask, double& weight, std::int64_t& edges) {
  if (part.offsets.size() != std::size_t(g.count()) + 1 || part.offsets.front() != 0 ||
      part.partners.size() != std::size_t(part.offsets.back()))
    return "its part has " + std::to_string(part.offsets.size()) + " row offsets for " +
           std::to_string(g.count()) + " rows";
  for (vertex_t i = 0; i < g.count(); ++i) {
    const vertex_t v = g.id(g.begin() + i);
    const auto first = part.partners.begin() + part.offsets[std::size_t(i)],
               last = part.partners.begin() + part.offsets[std::size_t(i) + 1];
    if (last - first > b[std::size_t(v)])
      return "vertex " + std::to_string(v) + " has " + std::to_string(last - first) + " partners, b = " +
             std::to_string(b[std::size_t(v)]);
    for (auto p = first; p != last; ++p) {
      if (*p < 0 || *p >= g.n || *p == v) return "vertex " + std::to_string(v) + " has partner " + std::to_string(*p);
      if (p != first && p[-1] >= *p) return "partners of " + std::to_string(v) + " not strictly ascending";
    }
    std::int64_t found = 0;
    for (offset_t k = g.offsets[std::size_t(i)]; k < g.offsets[std::size_t(i) + 1]; ++k) {
      const vertex_t u = g.id(g.cols[std::size_t(k)]);
      if (!std::binary_search(first, last, u)) continue;
      ++found;
      if (v < u) {
        weight += g.weights[std::size_t(k)];
        ++edges;
      }
    }
    if (found != last - first) return "vertex " + std::to_string(v) + " lists a partner that is not its neighbour";
    for (auto p = first; p != last; ++p) {
      const int owner = g.owner(g.numbering.label(*p));
      if (owner == g.rank) {
        const vertex_t j = g.numbering.label(*p) - g.begin();
        if (!std::binary_search(part.partners.begin() + part.offsets[std::size_t(j)],
                                part.partners.begin() + part.offsets[std::size_t(j) + 1], v))
          return std::to_string(v) + " lists " + std::to_string(*p) + " but not the other way";
      } else {
        ask[std::size_t(owner)].push_back(*p);
        ask[std::size_t(owner)].push_back(v);
      }
    }
  }
  return "";
}

}  // namespace

BMatchingOverRanks check_b_matching_over_ranks(const DistGraph& g, const std::vector<int>& b, const BMatching& part) {
  BMatchingOverRanks r;
  std::vector<std::vector<vertex_t>> ask(std::size_t(g.ranks));
  std::string bad = b.size() == std::size_t(g.n)
                        ? check_rows(g, b, part, ask, r.weight, r.edges)
                        : "b has " + std::to_string(b.size()) + " entries for " + std::to_string(g.n) + " vertices";
  // The pairs (partner, v) to each partner's owner, who checks that the
  // partner lists v.
  std::vector<int> send(std::size_t(g.ranks)), receive(std::size_t(g.ranks));
  std::vector<vertex_t> out;
  for (int q = 0; q < g.ranks; ++q) {
    if (ask[std::size_t(q)].size() > std::size_t(INT_MAX) - out.size()) bad = "over 2^31 pairs to check";
    send[std::size_t(q)] = bad.empty() ? int(ask[std::size_t(q)].size()) : 0;
    if (bad.empty()) out.insert(out.end(), ask[std::size_t(q)].begin(), ask[std::size_t(q)].end());
  }
  MPI_Alltoall(send.data(), 1, MPI_INT, receive.data(), 1, MPI_INT, MPI_COMM_WORLD);
  const std::vector<int> send_at = starts_of(send), receive_at = starts_of(receive);
  std::vector<vertex_t> in(std::size_t(receive_at.back() + receive.back()));
  MPI_Alltoallv(out.data(), send.data(), send_at.data(), MPI_INT32_T, in.data(), receive.data(), receive_at.data(),
                MPI_INT32_T, MPI_COMM_WORLD);
  for (std::size_t k = 0; bad.empty() && k + 1 < in.size(); k += 2) {
    const vertex_t mine = in[k], v = in[k + 1];
    const vertex_t j = g.numbering.label(mine) - g.begin();
    if (j < 0 || j >= g.count()) {
      bad = "vertex " + std::to_string(mine) + " is not this rank's";
    } else if (!std::binary_search(part.partners.begin() + part.offsets[std::size_t(j)],
                                   part.partners.begin() + part.offsets[std::size_t(j) + 1], v)) {
      bad = std::to_string(v) + " lists " + std::to_string(mine) + " but not the other way";
    }
  }
  r.violation = mpi::first_failure(bad);
  r.weight = mpi::sum_over_ranks(r.weight);
  r.edges = mpi::sum_over_ranks(r.edges);
  return r;
}

}  // namespace matchblas
