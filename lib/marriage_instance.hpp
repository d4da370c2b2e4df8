// A stable marriage instance: each man's and each woman's list of
// acceptable partners, most preferred first, given explicitly
// (MarriageInstance) or, for the "hard" instances of F. Manne, M. Naim,
// H. Lerring, M. Halappanavar, "On stable marriages and greedy matching",
// SIAM Workshop on Combinatorial Scientific Computing (CSC) 2016, sec. 4, as
// identical complete lists (IdenticalPreferences), which n^2 entries would
// not fit. The generators and the file format are in datasets/marriage.hpp,
// the algorithms in matchers/marriage/.
#pragma once
#include <cstdint>
#include <vector>

#include "lib/types.hpp"

namespace matchblas {

// Lists as CSR: men_offsets has men + 1 entries, men_lists[men_offsets[m] ..
// men_offsets[m+1]) are m's women, most preferred first; the same for women.
struct MarriageInstance {
  vertex_t men = 0, women = 0;
  std::vector<offset_t> men_offsets{0}, women_offsets{0};
  std::vector<vertex_t> men_lists, women_lists;
};

// Throws invalid_input naming the list and the entry when an id is out of
// range or listed twice, or the offsets are inconsistent.
void check_instance(const MarriageInstance& inst);

// Every man ranks the women in women_order; every woman ranks man m at
// man_rank[m] (0 = best): Manne et al. 2016's hard instances, complete lists.
struct IdenticalPreferences {
  std::vector<vertex_t> women_order;  // a permutation of the women
  std::vector<std::int32_t> man_rank; // a permutation of 0 .. men-1
};

// Throws invalid_input unless both are permutations.
void check_identical(const IdenticalPreferences& p);

}  // namespace matchblas
