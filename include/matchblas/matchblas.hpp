// matchblas's whole C++ interface (header-only over the C one): the pre-pass
// (prepass.hpp) and the matching calls (matching.hpp). The Eigen adapter is
// eigen.hpp, included on its own.
#pragma once

#include "matchblas/matching.hpp"
#include "matchblas/prepass.hpp"
