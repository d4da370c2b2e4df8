// Index types of matchblas: vertex ids are 32-bit, edge offsets 64-bit
// (a complete graph of 131072 vertices has 2^34 entries).
#pragma once
#include <cstdint>

namespace matchblas {

using vertex_t = std::int32_t;  // a vertex id, or -1 for "none"
using offset_t = std::int64_t;  // a position in an edge array

inline constexpr vertex_t no_vertex = -1;

}  // namespace matchblas
