// Checks of stable marriage instances (lib/marriage_instance.hpp).
#include "lib/marriage_instance.hpp"

#include <string>
#include <vector>

#include "lib/error.hpp"

namespace matchblas {

void check_identical(const IdenticalPreferences& p) {
  const std::size_t n_w = p.women_order.size(), n_m = p.man_rank.size();
  std::vector<std::uint8_t> seen(n_w, 0);
  for (vertex_t w : p.women_order) {
    if (w < 0 || std::size_t(w) >= n_w || seen[w]) throw invalid_input("identical preferences: women_order is not a permutation");
    seen[w] = 1;
  }
  std::vector<std::uint8_t> seen_r(n_m, 0);
  for (std::int32_t r : p.man_rank) {
    if (r < 0 || std::size_t(r) >= n_m || seen_r[r]) throw invalid_input("identical preferences: man_rank is not a permutation");
    seen_r[r] = 1;
  }
}

void check_instance(const MarriageInstance& inst) {
  const auto check_side = [](const char* side, vertex_t count, vertex_t other, const std::vector<offset_t>& off,
                             const std::vector<vertex_t>& lists) {
    if (count < 0 || off.size() != std::size_t(count) + 1 || off.front() != 0 || off.back() != offset_t(lists.size()))
      throw invalid_input(std::string("marriage instance: the ") + side + "'s offsets do not match their lists");
    std::vector<vertex_t> last_seen_by(static_cast<std::size_t>(other), no_vertex);
    for (vertex_t a = 0; a < count; ++a) {
      if (off[a + 1] < off[a]) throw invalid_input(std::string("marriage instance: ") + side + " offsets decrease at " + std::to_string(a));
      for (offset_t k = off[a]; k < off[a + 1]; ++k) {
        const vertex_t b = lists[k];
        if (b < 0 || b >= other)
          throw invalid_input(std::string("marriage instance: ") + side + " " + std::to_string(a) + " lists " +
                              std::to_string(b) + ", out of range 0.." + std::to_string(other - 1));
        if (last_seen_by[b] == a)
          throw invalid_input(std::string("marriage instance: ") + side + " " + std::to_string(a) + " lists " +
                              std::to_string(b) + " twice");
        last_seen_by[b] = a;
      }
    }
  };
  check_side("man", inst.men, inst.women, inst.men_offsets, inst.men_lists);
  check_side("woman", inst.women, inst.men, inst.women_offsets, inst.women_lists);
}

}  // namespace matchblas
