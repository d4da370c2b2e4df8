// The memory GraphBLAS works in (ops/cpu/graphblas.hpp, grb::memory): the
// functions GraphBLAS is initialised with (GxB_init). Blocks of at least
// pool_min_bytes are kept when freed, up to pool_limit() bytes in all, and
// handed out again for requests they fit within a factor of two, so that
// the temporaries of a matcher's rounds (a row extract, a scaling, a
// product: tens to hundreds of MB each) land in memory already mapped
// instead of faulting fresh pages in and unmapping them again. The kept
// blocks are freed when no GraphBlasGraph is alive.
// Measured (dev, R-MAT 2^20 with 8M edges, suitor-bulk, 2 threads,
// OMP_WAIT_POLICY=passive, load 6): 2.3 s with malloc/free, 1.1 s with the
// pool (plain backend 0.6 s); without it the kernel's page faults, zeroing
// and unmapping were 40% of the profile.
// Every block carries a 16-byte header with its capacity (free is given
// only the pointer), so arrays handed to GraphBLAS must come from
// allocate() and arrays GraphBLAS hands back go to release(). When another
// part of the program initialised GraphBLAS first, install() returns false
// and both fall back to malloc and free, which GrB_init uses.
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "ops/cpu/graphblas.hpp"

namespace matchblas::ops::grb::memory {

namespace {

struct alignas(16) Header {
  std::size_t capacity;  // usable bytes after the header
};

// Smaller blocks are left to malloc, which keeps them in its own arenas.
constexpr std::size_t pool_min_bytes = std::size_t(1) << 20;
// Capacities of large blocks are multiples of this (fewer distinct sizes).
constexpr std::size_t large_granule = std::size_t(1) << 16;

// At most an eighth of the physical memory is kept (at least 256 MB).
std::size_t pool_limit() {
  static const std::size_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const std::size_t phys = pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
    return std::max(phys / 8, std::size_t(256) << 20);
  }();
  return limit;
}

std::mutex pool_mutex;
std::vector<std::pair<std::size_t, Header*>> pool;  // kept blocks and their capacities
std::size_t pooled = 0;                              // their capacities, summed
long live_graphs = 0;                                // GraphBlasGraph bodies alive
std::atomic<bool> installed{false};

void* payload(Header* h) { return h + 1; }
Header* header(void* p) { return static_cast<Header*>(p) - 1; }

void* pool_malloc(std::size_t n) {
  if (n >= pool_min_bytes) {
    const std::lock_guard<std::mutex> lock(pool_mutex);
    auto best = pool.end();
    for (auto it = pool.begin(); it != pool.end(); ++it)
      if (it->first >= n && it->first / 2 <= n && (best == pool.end() || it->first < best->first)) best = it;
    if (best != pool.end()) {
      Header* h = best->second;
      pooled -= best->first;
      pool.erase(best);
      return payload(h);
    }
  }
  const std::size_t capacity = n >= pool_min_bytes ? (n + large_granule - 1) / large_granule * large_granule : n;
  auto* h = static_cast<Header*>(std::malloc(sizeof(Header) + capacity));
  if (h == nullptr) return nullptr;
  h->capacity = capacity;
  return payload(h);
}

void pool_free(void* p) {
  if (p == nullptr) return;
  Header* h = header(p);
  if (h->capacity >= pool_min_bytes) {
    const std::lock_guard<std::mutex> lock(pool_mutex);
    if (live_graphs > 0 && pooled + h->capacity <= pool_limit()) {
      pool.emplace_back(h->capacity, h);
      pooled += h->capacity;
      return;
    }
  }
  std::free(h);
}

void* pool_calloc(std::size_t count, std::size_t size) {
  if (size != 0 && count > std::size_t(-1) / size) return nullptr;
  void* p = pool_malloc(count * size);
  if (p != nullptr) std::memset(p, 0, count * size);
  return p;
}

void* pool_realloc(void* p, std::size_t n) {
  if (p == nullptr) return pool_malloc(n);
  const std::size_t capacity = header(p)->capacity;
  if (n <= capacity) return p;
  void* q = pool_malloc(n);
  if (q == nullptr) return nullptr;  // p stays valid, as realloc promises
  std::memcpy(q, p, capacity);
  pool_free(p);
  return q;
}

}  // namespace

GrB_Info install() {
  const GrB_Info info = GxB_init(GrB_NONBLOCKING, pool_malloc, pool_calloc, pool_realloc, pool_free);
  if (info == GrB_SUCCESS) installed = true;
  return info;
}

void* allocate(std::size_t bytes) { return installed ? pool_malloc(bytes) : std::malloc(std::max<std::size_t>(bytes, 1)); }

void release(void* p) {
  if (installed) pool_free(p);
  else std::free(p);
}

void graph_made() {
  const std::lock_guard<std::mutex> lock(pool_mutex);
  ++live_graphs;
}

void graph_gone() {
  std::vector<std::pair<std::size_t, Header*>> kept;
  {
    const std::lock_guard<std::mutex> lock(pool_mutex);
    if (--live_graphs > 0) return;
    kept.swap(pool);
    pooled = 0;
  }
  for (const auto& [capacity, h] : kept) std::free(h);
}

std::size_t kept_bytes() {
  const std::lock_guard<std::mutex> lock(pool_mutex);
  return pooled;
}

}  // namespace matchblas::ops::grb::memory
