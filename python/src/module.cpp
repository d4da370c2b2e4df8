// matchblas._core, the compiled half of the Python package (nanobind): the
// C interface of include/matchblas bound on numpy and DLPack arrays. Only
// the public headers are included (python/ is thin over the public
// surface: docs/ARCHITECTURE.md "The Python package").
#include <nanobind/nanobind.h>

namespace nb = nanobind;

namespace matchblas::python {
void bind_matching(nb::module_& m);
void bind_ops(nb::module_& m);
}  // namespace matchblas::python

NB_MODULE(_core, m) {
  m.doc() = "matchblas's C interface on numpy and DLPack arrays (use the matchblas package, not this module)";
  matchblas::python::bind_matching(m);
  matchblas::python::bind_ops(m);
}
