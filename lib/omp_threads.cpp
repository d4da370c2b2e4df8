// require_threads; see omp_threads.hpp.
#include "lib/omp_threads.hpp"

#include <pthread.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/error.hpp"

namespace matchblas {

namespace {

// OMP_STACKSIZE's bytes as libgomp reads them; 0 when unset or not a size
// (libgomp then keeps the default stack, and so does the probe).
std::size_t omp_stack_bytes(std::string* text) {
  for (const char* name : {"OMP_STACKSIZE", "GOMP_STACKSIZE"}) {
    const char* v = std::getenv(name);
    if (!v || !*v) continue;
    const char* p = v;
    while (std::isspace(static_cast<unsigned char>(*p))) ++p;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(p, &end, 10);
    if (end == p) return 0;
    while (std::isspace(static_cast<unsigned char>(*end))) ++end;
    unsigned shift = 10;
    switch (std::tolower(static_cast<unsigned char>(*end))) {
      case '\0': break;
      case 'b': shift = 0; ++end; break;
      case 'k': ++end; break;
      case 'm': shift = 20; ++end; break;
      case 'g': shift = 30; ++end; break;
      default: return 0;
    }
    while (std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end != '\0' || n > (~0ull >> shift)) return 0;
    *text = std::string(name) + "=" + v;
    return std::size_t(n << shift);
  }
  return 0;
}

struct Gate {
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t open_cond = PTHREAD_COND_INITIALIZER;
  bool open = false;
};

void* wait_at_gate(void* arg) {
  Gate* g = static_cast<Gate*>(arg);
  pthread_mutex_lock(&g->mutex);
  while (!g->open) pthread_cond_wait(&g->open_cond, &g->mutex);
  pthread_mutex_unlock(&g->mutex);
  return nullptr;
}

}  // namespace

void require_threads(int threads) {
  if (threads <= 1) return;
  std::string stack_text;
  const std::size_t stack = omp_stack_bytes(&stack_text);
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) throw error("cannot start " + std::to_string(threads) + " threads");
  int failed = 0;
  if (stack > 0) failed = pthread_attr_setstacksize(&attr, stack);
  Gate gate;
  std::vector<pthread_t> started;
  started.reserve(std::size_t(threads - 1));
  for (int i = 1; i < threads && failed == 0; ++i) {
    pthread_t t;
    failed = pthread_create(&t, &attr, wait_at_gate, &gate);
    if (failed == 0) started.push_back(t);
  }
  pthread_attr_destroy(&attr);
  pthread_mutex_lock(&gate.mutex);
  gate.open = true;
  pthread_cond_broadcast(&gate.open_cond);
  pthread_mutex_unlock(&gate.mutex);
  for (pthread_t t : started) pthread_join(t, nullptr);
  if (failed != 0)
    throw error("cannot start " + std::to_string(threads) + " threads: " + std::strerror(failed) + " (" +
                std::to_string(started.size() + 1) + " started" + (stack_text.empty() ? "" : ", " + stack_text) +
                "); ask for fewer with --threads or OMP_NUM_THREADS");
}

}  // namespace matchblas
