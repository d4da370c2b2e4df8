// Stable marriage by proposals; see stable_marriage.hpp.
#include "matchers/marriage/stable_marriage.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <limits>
#include <string>
#include <numeric>
#include <vector>

#include "lib/error.hpp"
#include "lib/omp_threads.hpp"

namespace matchblas {

namespace {

// The two ways of giving preferences, behind one interface: a man's k-th
// choice and that woman's rank of him.
struct ListPrefs {
  const RankedLists& p;
  vertex_t men() const { return p.men; }
  vertex_t women() const { return p.women; }
  offset_t length(vertex_t m) const { return p.offsets[m + 1] - p.offsets[m]; }
  vertex_t woman(vertex_t m, offset_t k) const { return p.woman[p.offsets[m] + k]; }
  std::int32_t rank(vertex_t m, offset_t k) const { return p.her_rank[p.offsets[m] + k]; }
};

struct SharedPrefs {
  const IdenticalPreferences& p;
  vertex_t men() const { return vertex_t(p.man_rank.size()); }
  vertex_t women() const { return vertex_t(p.women_order.size()); }
  offset_t length(vertex_t) const { return offset_t(p.women_order.size()); }
  vertex_t woman(vertex_t, offset_t k) const { return p.women_order[k]; }
  std::int32_t rank(vertex_t m, offset_t) const { return p.man_rank[m]; }
};

constexpr std::int32_t unranked = std::numeric_limits<std::int32_t>::max();

Marriage from_husbands(vertex_t men, std::vector<vertex_t> husband) {
  Marriage r;
  r.wife.assign(static_cast<std::size_t>(men), no_vertex);
  for (vertex_t w = 0; w < vertex_t(husband.size()); ++w)
    if (husband[w] != no_vertex) r.wife[husband[w]] = w;
  r.husband = std::move(husband);
  return r;
}

// Alg. 1 with a queue (Gale-Shapley) or a stack (McVitie-Wilson): the free
// man taken next proposes to his best remaining woman who would take him
// (skipping those holding a better suitor); a displaced suitor is put back.
template <class Prefs, bool Stack>
Marriage propose_sequentially(const Prefs& p) {
  const vertex_t men = p.men(), women = p.women();
  std::vector<offset_t> next(static_cast<std::size_t>(men), 0);
  std::vector<vertex_t> suitor(static_cast<std::size_t>(women), no_vertex);
  std::vector<std::int32_t> suitor_rank(static_cast<std::size_t>(women), unranked);
  std::deque<vertex_t> free_men;
  for (vertex_t m = 0; m < men; ++m) free_men.push_back(m);
  while (!free_men.empty()) {
    // The front is the queue's head and the stack's top: man 0 first; a
    // rejected man goes to the back (queue) or is taken at once (stack).
    const vertex_t m = free_men.front();
    free_men.pop_front();
    while (next[m] < p.length(m)) {
      const offset_t k = next[m]++;
      const vertex_t w = p.woman(m, k);
      const std::int32_t r = p.rank(m, k);
      if (r >= suitor_rank[w]) continue;  // she holds a better suitor: skip
      const vertex_t displaced = suitor[w];
      suitor[w] = m;
      suitor_rank[w] = r;
      if (displaced != no_vertex) {
        if constexpr (Stack) free_men.push_front(displaced);
        else free_men.push_back(displaced);
      }
      break;
    }
  }
  return from_husbands(men, std::move(suitor));
}

// A woman's suitor word for the parallel versions: rank << 32 | man, smaller
// is better, all ones while she is free.
using SuitorWord = std::uint64_t;
constexpr SuitorWord no_suitor = std::numeric_limits<SuitorWord>::max();

// Man m proposes down his list (from his cursor) until a woman takes him:
// her word is replaced by compare-and-swap while his offer still beats it
// (offers only improve, so a word never comes back: no ABA). Returns the man
// he displaced, or no_vertex (she was free, or his list ran out). His cursor
// is touched only by the thread holding him, in a register while he is
// rejected and stored before each offer: the next holder reads it after the
// CAS that hands him over (acq_rel), or after a barrier. (A store per
// rejection would bounce the cursors' cache lines between the threads: a
// displaced man is often another thread's.)
template <class Prefs>
vertex_t place(const Prefs& p, vertex_t m, std::vector<offset_t>& next, std::vector<SuitorWord>& held) {
  const offset_t length = p.length(m);
  for (offset_t k = next[m]; k < length;) {
    const vertex_t w = p.woman(m, k);
    const SuitorWord mine = (SuitorWord(std::uint32_t(p.rank(m, k))) << 32) | SuitorWord(std::uint32_t(m));
    ++k;
    std::atomic_ref<SuitorWord> slot(held[w]);
    SuitorWord seen = slot.load(std::memory_order_acquire);
    if (mine >= seen) continue;  // she holds a better suitor
    next[m] = k;
    do
      if (slot.compare_exchange_weak(seen, mine, std::memory_order_acq_rel, std::memory_order_acquire))
        return seen == no_suitor ? no_vertex : vertex_t(std::uint32_t(seen));
    while (mine < seen);
  }
  next[m] = length;
  return no_vertex;
}

Marriage from_words(vertex_t men, const std::vector<SuitorWord>& held) {
  std::vector<vertex_t> husband(held.size(), no_vertex);
  for (std::size_t w = 0; w < held.size(); ++w)
    if (held[w] != no_suitor) husband[w] = vertex_t(std::uint32_t(held[w]));
  return from_husbands(men, std::move(husband));
}

// McVitie-Wilson in parallel: each man's chain of rejections is followed by
// one thread (Manne et al. 2016 sec. 4).
template <class Prefs>
Marriage mcvitie_wilson_parallel(const Prefs& p, int threads) {
  const vertex_t men = p.men();
  const int t = threads > 0 ? threads : omp_get_max_threads();
  std::vector<SuitorWord> held(static_cast<std::size_t>(p.women()), no_suitor);
  std::vector<offset_t> next(static_cast<std::size_t>(men), 0);
#pragma omp parallel for num_threads(t) schedule(dynamic, 1024)
  for (vertex_t first = 0; first < men; ++first)
    for (vertex_t m = first; m != no_vertex;) m = place(p, m, next, held);
  return from_words(men, held);
}

// Gale-Shapley in parallel (Manne et al. 2016 sec. 4): rounds over a queue of free
// men; in a round every free man proposes (in parallel) until placed, and
// the men displaced in the round form the next round's queue.
template <class Prefs>
Marriage gale_shapley_parallel(const Prefs& p, int threads) {
  const vertex_t men = p.men();
  const int t = threads > 0 ? threads : omp_get_max_threads();
  std::vector<SuitorWord> held(static_cast<std::size_t>(p.women()), no_suitor);
  std::vector<offset_t> next(static_cast<std::size_t>(men), 0);
  std::vector<vertex_t> queue(static_cast<std::size_t>(men)), later;
  std::iota(queue.begin(), queue.end(), 0);
  AllocationGuard guard;  // a list that cannot grow: rethrown after the region
  while (!queue.empty()) {
    later.clear();
#pragma omp parallel num_threads(t)
    {
      std::vector<vertex_t> mine;
#pragma omp for schedule(dynamic, 1024) nowait
      for (std::size_t i = 0; i < queue.size(); ++i)
        guard.run([&] {
          const vertex_t displaced = place(p, queue[i], next, held);
          if (displaced != no_vertex) mine.push_back(displaced);
        });
#pragma omp critical
      guard.run([&] { later.insert(later.end(), mine.begin(), mine.end()); });
    }
    guard.rethrow();
    queue.swap(later);
  }
  return from_words(men, held);
}

}  // namespace

namespace {

// A list entry with a rank: (person, rank) pairs sorted by person, so that
// "is x there, and at what rank" is a search in a few entries.
struct Listing {
  vertex_t who;
  std::int32_t rank;
};
bool by_person(const Listing& a, const Listing& b) { return a.who < b.who; }

// x's rank in [at, at + len), or unranked. Short runs, the common case, by
// a scan without branches; long ones by a binary search.
std::int32_t rank_in(const Listing* at, offset_t len, vertex_t x) {
  if (len <= 32) {
    std::int32_t r = unranked;
    for (offset_t i = 0; i < len; ++i) r = at[i].who == x ? at[i].rank : r;
    return r;
  }
  while (len > 1) {
    const offset_t half = len / 2;
    at = at[half - 1].who < x ? at + half : at;
    len -= half;
  }
  return at->who == x ? at->rank : unranked;
}

// Who lists each man: for man m, entries [offsets[m], offsets[m + 1]) are
// the women who list him with their rank of him, sorted by woman. Built in
// parallel (counts and places by atomics, then each man's entries sorted:
// the same result at every thread count). Cost O(entries) plus the sorts of
// the men's entries.
struct ListedBy {
  std::vector<offset_t> offsets;
  std::vector<Listing> entries;
  // w's rank of m, or unranked where she does not list him.
  std::int32_t rank(vertex_t m, vertex_t w) const {
    return rank_in(entries.data() + offsets[m], offsets[m + 1] - offsets[m], w);
  }
};

ListedBy listed_by(const MarriageInstance& inst) {
  ListedBy l;
  l.offsets.assign(static_cast<std::size_t>(inst.men) + 1, 0);
  const offset_t entries = offset_t(inst.women_lists.size());
  // One thread: the plain counting sort, whose pass in woman order leaves
  // each man's entries sorted; more: atomic places, then the sorts.
  const bool parallel = omp_get_max_threads() > 1;
  offset_t* count = l.offsets.data() + 1;
  if (!parallel)
    for (const vertex_t m : inst.women_lists) ++count[m];
  else
#pragma omp parallel for schedule(static)
    for (offset_t k = 0; k < entries; ++k) {
#pragma omp atomic
      ++count[inst.women_lists[k]];
    }
  for (vertex_t m = 0; m < inst.men; ++m) l.offsets[m + 1] += l.offsets[m];
  l.entries.resize(inst.women_lists.size());
  std::vector<offset_t> fill(l.offsets.begin(), l.offsets.end() - 1);
  if (!parallel) {
    for (vertex_t w = 0; w < inst.women; ++w)
      for (offset_t k = inst.women_offsets[w]; k < inst.women_offsets[w + 1]; ++k)
        l.entries[fill[inst.women_lists[k]]++] = {w, std::int32_t(k - inst.women_offsets[w])};
    return l;
  }
#pragma omp parallel for schedule(dynamic, 4096)
  for (vertex_t w = 0; w < inst.women; ++w)
    for (offset_t k = inst.women_offsets[w]; k < inst.women_offsets[w + 1]; ++k) {
      offset_t at;
#pragma omp atomic capture
      at = fill[inst.women_lists[k]]++;
      l.entries[at] = {w, std::int32_t(k - inst.women_offsets[w])};
    }
#pragma omp parallel for schedule(dynamic, 4096)
  for (vertex_t m = 0; m < inst.men; ++m)
    std::sort(l.entries.begin() + l.offsets[m], l.entries.begin() + l.offsets[m + 1], by_person);
  return l;
}

}  // namespace

RankedLists rank_lists(const MarriageInstance& inst) {
  check_instance(inst);
  // Each man's list, purged of the women who do not list him and annotated
  // with their rank of him (Manne et al. 2016 sec. 2), in parallel over the
  // men.
  // Her rank of him for every entry of every man's list (a search in his
  // few listers), then the lists without the unranked entries.
  std::vector<std::int32_t> rank_of(inst.men_lists.size());
  RankedLists r;
  r.men = inst.men;
  r.women = inst.women;
  r.offsets.assign(static_cast<std::size_t>(inst.men) + 1, 0);
  {
    const ListedBy by = listed_by(inst);
#pragma omp parallel for schedule(dynamic, 4096)
    for (vertex_t m = 0; m < inst.men; ++m) {
      offset_t kept = 0;
      for (offset_t k = inst.men_offsets[m]; k < inst.men_offsets[m + 1]; ++k) {
        rank_of[k] = by.rank(m, inst.men_lists[k]);
        kept += rank_of[k] != unranked;
      }
      r.offsets[m + 1] = kept;
    }
  }
  for (vertex_t m = 0; m < inst.men; ++m) r.offsets[m + 1] += r.offsets[m];
  r.woman.resize(static_cast<std::size_t>(r.offsets.back()));
  r.her_rank.resize(r.woman.size());
#pragma omp parallel for schedule(dynamic, 4096)
  for (vertex_t m = 0; m < inst.men; ++m) {
    offset_t at = r.offsets[m];
    for (offset_t k = inst.men_offsets[m]; k < inst.men_offsets[m + 1]; ++k) {
      if (rank_of[k] == unranked) continue;  // she does not list him: purged
      r.woman[at] = inst.men_lists[k];
      r.her_rank[at++] = rank_of[k];
    }
  }
  return r;
}

Marriage gale_shapley(const RankedLists& p) { return propose_sequentially<ListPrefs, false>(ListPrefs{p}); }
Marriage mcvitie_wilson(const RankedLists& p) { return propose_sequentially<ListPrefs, true>(ListPrefs{p}); }
Marriage mcvitie_wilson_omp(const RankedLists& p, int threads) { return mcvitie_wilson_parallel(ListPrefs{p}, threads); }
Marriage gale_shapley_omp(const RankedLists& p, int threads) { return gale_shapley_parallel(ListPrefs{p}, threads); }
Marriage gale_shapley(const IdenticalPreferences& p) {
  check_identical(p);
  return propose_sequentially<SharedPrefs, false>(SharedPrefs{p});
}
Marriage mcvitie_wilson(const IdenticalPreferences& p) {
  check_identical(p);
  return propose_sequentially<SharedPrefs, true>(SharedPrefs{p});
}
Marriage mcvitie_wilson_omp(const IdenticalPreferences& p, int threads) {
  check_identical(p);
  return mcvitie_wilson_parallel(SharedPrefs{p}, threads);
}
Marriage gale_shapley_omp(const IdenticalPreferences& p, int threads) {
  check_identical(p);
  return gale_shapley_parallel(SharedPrefs{p}, threads);
}

std::string marriage_violation(const MarriageInstance& inst, const Marriage& m) {
  if (m.wife.size() != std::size_t(inst.men) || m.husband.size() != std::size_t(inst.women))
    return "the marriage has the wrong number of men or women";
  // Every woman checked before any man, each side in parallel (the checks
  // say only whether there is a fault; the message is written after the
  // loop, for the first fault in that order: the lowest woman, then the
  // lowest man), so it is the same at every thread count.
  std::vector<std::int32_t> husband_rank(static_cast<std::size_t>(inst.women), unranked);
  const auto woman_fault = [&](vertex_t w, std::string* why) {
    const vertex_t h = m.husband[w];
    if (h != no_vertex && (h < 0 || h >= inst.men || m.wife[h] != w)) {
      if (why) *why = "woman " + std::to_string(w) + "'s husband " + std::to_string(h) + " does not have her as wife";
      return true;
    }
    for (offset_t k = inst.women_offsets[w]; k < inst.women_offsets[w + 1]; ++k)
      if (inst.women_lists[k] == h) husband_rank[w] = std::int32_t(k - inst.women_offsets[w]);
    if (h != no_vertex && husband_rank[w] == unranked) {
      if (why) *why = "woman " + std::to_string(w) + " is married to man " + std::to_string(h) + " whom she does not list";
      return true;
    }
    return false;
  };
  std::string why;
  vertex_t first = inst.women;
#pragma omp parallel for schedule(dynamic, 4096) reduction(min : first)
  for (vertex_t w = 0; w < inst.women; ++w)
    if (woman_fault(w, nullptr)) first = std::min(first, w);
  if (first < inst.women) {
    woman_fault(first, &why);
    return why;
  }
  // Her rank of each man she lists: a copy of her list sorted by man (not
  // rank_lists' index of who lists each man, so the check stays independent
  // of what it checks).
  std::vector<Listing> sorted(inst.women_lists.size());
#pragma omp parallel for schedule(dynamic, 4096)
  for (vertex_t w = 0; w < inst.women; ++w) {
    for (offset_t k = inst.women_offsets[w]; k < inst.women_offsets[w + 1]; ++k)
      sorted[k] = {inst.women_lists[k], std::int32_t(k - inst.women_offsets[w])};
    std::sort(sorted.begin() + inst.women_offsets[w], sorted.begin() + inst.women_offsets[w + 1], by_person);
  }
  const auto her_rank_of = [&](vertex_t w, vertex_t man) {
    return rank_in(sorted.data() + inst.women_offsets[w], inst.women_offsets[w + 1] - inst.women_offsets[w], man);
  };
  const auto man_fault = [&](vertex_t man, std::string* why) {
    const vertex_t wife = m.wife[man];
    if (wife != no_vertex && (wife < 0 || wife >= inst.women || m.husband[wife] != man)) {
      if (why) *why = "man " + std::to_string(man) + "'s wife " + std::to_string(wife) + " does not have him as husband";
      return true;
    }
    for (offset_t k = inst.men_offsets[man]; k < inst.men_offsets[man + 1]; ++k) {
      const vertex_t w = inst.men_lists[k];
      if (w == wife) return false;  // women after his wife he likes less
      if (her_rank_of(w, man) < husband_rank[w]) {
        if (why) *why = "man " + std::to_string(man) + " and woman " + std::to_string(w) + " block: each prefers the other";
        return true;
      }
    }
    if (wife != no_vertex && why)
      *why = "man " + std::to_string(man) + " is married to woman " + std::to_string(wife) + " whom he does not list";
    return wife != no_vertex;
  };
  first = inst.men;
#pragma omp parallel for schedule(dynamic, 4096) reduction(min : first)
  for (vertex_t man = 0; man < inst.men; ++man)
    if (man_fault(man, nullptr)) first = std::min(first, man);
  if (first < inst.men) man_fault(first, &why);
  return why;
}

std::int64_t rank_sum(const MarriageInstance& inst, const Marriage& m) {
  std::int64_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (vertex_t man = 0; man < inst.men; ++man)
    for (offset_t k = inst.men_offsets[man]; k < inst.men_offsets[man + 1]; ++k)
      if (inst.men_lists[k] == m.wife[man]) sum += k - inst.men_offsets[man] + 1;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (vertex_t w = 0; w < inst.women; ++w)
    for (offset_t k = inst.women_offsets[w]; k < inst.women_offsets[w + 1]; ++k)
      if (inst.women_lists[k] == m.husband[w]) sum += k - inst.women_offsets[w] + 1;
  return sum;
}

}  // namespace matchblas
