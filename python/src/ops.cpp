// matchblas._core: the ops (ops.h) on numpy arrays (an OpsMatrix holds the
// library's copy of a matrix) and on CUDA device arrays (CuPy's, through
// DLPack, read and written in place). python/matchblas/ops.py is the
// friendly surface; these return (status, message, results...).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "arrays.hpp"
#include "matchblas/matchblas.h"

namespace matchblas::python {

namespace {

// The library's copy of a matrix (matchblas_ops_matrix), owned.
struct OpsMatrix {
  std::unique_ptr<matchblas_ops_matrix, decltype(&matchblas_ops_matrix_free)> m{nullptr, &matchblas_ops_matrix_free};
  matchblas_ops_matrix_arrays view() const {
    matchblas_ops_matrix_arrays v{};
    matchblas_ops_matrix_view(m.get(), &v);
    return v;
  }
};

nb::tuple failed(const matchblas_ops_status& st) { return nb::make_tuple(st.status, message_of(st.message), nb::none()); }

template <class Array>
const std::uint8_t* mask_of(const std::optional<Array>& a, std::int64_t n, const char* what) {
  if (!a) return nullptr;
  expect_vector(*a, n, what);
  if (!is<std::uint8_t>(a->dtype())) throw nb::type_error((std::string(what) + " must be uint8").c_str());
  return static_cast<const std::uint8_t*>(a->data());
}

matchblas_value_type weight_type(const nb::dlpack::dtype& d, const char* what) {
  const matchblas_value_type t = value_type_of(d, what);
  if (t != MATCHBLAS_FLOAT && t != MATCHBLAS_DOUBLE)
    throw nb::type_error((std::string(what) + " must be float32 or float64").c_str());
  return t;
}

matchblas_ops_type entry_type(const nb::dlpack::dtype& d) {
  if (is<std::uint8_t>(d)) return MATCHBLAS_OPS_UINT8;
  if (is<std::int32_t>(d)) return MATCHBLAS_OPS_INT32;
  if (is<std::int64_t>(d)) return MATCHBLAS_OPS_INT64;
  if (is<float>(d)) return MATCHBLAS_OPS_FLOAT;
  if (is<double>(d)) return MATCHBLAS_OPS_DOUBLE;
  throw nb::type_error(("assign takes uint8, int32, int64, float32 or float64 arrays, not " + describe(d)).c_str());
}

// What an assign writes: values (as many entries as out, of its dtype) or
// one value (a host array of one entry of out's dtype): (values, value).
template <class Out, class Values>
std::pair<const void*, const void*> assign_source(const Out& out, const std::optional<Values>& values,
                                                  const std::optional<HostArray>& value) {
  if (values) {
    expect_vector(*values, std::int64_t(out.shape(0)), "values");
    if (values->dtype() != out.dtype()) throw nb::type_error("values must have out's dtype");
    return {values->data(), nullptr};
  }
  if (!value || value->size() != 1 || value->dtype() != out.dtype())
    throw nb::type_error("value must be one entry of out's dtype");
  return {nullptr, value->data()};
}

// ---- CPU -------------------------------------------------------------------

nb::tuple matrix_create(std::int64_t rows, std::int64_t cols, int layout, const HostArray& pointers,
                        const HostArray& indices, const HostArray& values) {
  expect_vector(pointers, (layout == 0 ? rows : cols) + 1, "the index pointers");
  expect_vector(indices, -1, "the indices");
  expect_vector(values, std::int64_t(indices.shape(0)), "the values");
  if (pointers.dtype() != indices.dtype()) throw nb::type_error("the index pointers and the indices differ in dtype");
  (void)index_type_of(pointers.dtype(), "the index pointers");
  expect_pointers_within(pointers, indices);
  matchblas_sparse a{rows,
                     cols,
                     layout == 0 ? MATCHBLAS_CSR : MATCHBLAS_CSC,
                     0,
                     index_type_of(pointers.dtype(), "the index pointers"),
                     weight_type(values.dtype(), "the values"),
                     pointers.data(),
                     indices.data(),
                     values.data()};
  OpsMatrix out;
  matchblas_ops_matrix* m = nullptr;
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_matrix_create(&a, &m, &st);
  }
  if (st.status != MATCHBLAS_OK) return failed(st);
  out.m.reset(m);
  return nb::make_tuple(st.status, message_of(st.message), std::move(out));
}

nb::tuple argmax(const OpsMatrix& a, const std::optional<HostArray>& active, const std::optional<HostArray>& eligible,
                 const std::optional<HostArray>& floor_weight, const std::optional<HostArray>& floor_vertex,
                 int backend) {
  const matchblas_ops_matrix_arrays v = a.view();
  const std::uint8_t* active_rows = mask_of(active, v.rows, "row_mask");
  const std::uint8_t* eligible_cols = mask_of(eligible, v.cols, "col_mask");
  const void* fw = nullptr;
  const std::int32_t* fv = nullptr;
  if (floor_weight) {
    expect_vector(*floor_weight, v.cols, "the floor's weights");
    if (weight_type(floor_weight->dtype(), "the floor's weights") != v.value_type)
      throw nb::type_error("the floor's weights must have the matrix's dtype");
    fw = floor_weight->data();
  }
  if (floor_vertex) {
    expect_vector(*floor_vertex, v.cols, "the floor's vertices");
    if (!is<std::int32_t>(floor_vertex->dtype())) throw nb::type_error("the floor's vertices must be int32");
    fv = static_cast<const std::int32_t*>(floor_vertex->data());
  }
  auto best = new_array<std::int32_t>(v.rows);
  matchblas_ops_status st{};
  nb::object best_weight;
  void* bw = nullptr;
  if (v.value_type == MATCHBLAS_FLOAT) {
    auto w = new_array<float>(v.rows);
    bw = w.data();
    best_weight = nb::cast(w);
  } else {
    auto w = new_array<double>(v.rows);
    bw = w.data();
    best_weight = nb::cast(w);
  }
  {
    nb::gil_scoped_release release;
    matchblas_ops_argmax(a.m.get(), active_rows, eligible_cols, fw, fv, best.data(), bw,
                         static_cast<matchblas_ops_backend>(backend), &st);
  }
  if (st.status != MATCHBLAS_OK) return nb::make_tuple(st.status, message_of(st.message), nb::none(), nb::none());
  return nb::make_tuple(st.status, message_of(st.message), best, best_weight);
}

nb::tuple assign(HostOut out, const std::optional<HostArray>& mask, const std::optional<HostArray>& values,
                 const std::optional<HostArray>& value) {
  expect_vector(out, -1, "out");
  const auto n = std::int64_t(out.shape(0));
  const matchblas_ops_type type = entry_type(out.dtype());
  const std::uint8_t* m = mask_of(mask, n, "mask");
  const auto [vs, v] = assign_source(out, values, value);
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_assign(out.data(), type, n, m, vs, v, &st);
  }
  return nb::make_tuple(st.status, message_of(st.message));
}

nb::tuple select(const OpsMatrix& a, const std::optional<HostArray>& keep_rows,
                 const std::optional<HostArray>& keep_cols) {
  const matchblas_ops_matrix_arrays v = a.view();
  const std::uint8_t* kr = mask_of(keep_rows, v.rows, "rows");
  const std::uint8_t* kc = mask_of(keep_cols, v.cols, "cols");
  matchblas_ops_matrix* c = nullptr;
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_select(a.m.get(), kr, kc, &c, &st);
  }
  if (st.status != MATCHBLAS_OK) return failed(st);
  OpsMatrix out;
  out.m.reset(c);
  return nb::make_tuple(st.status, message_of(st.message), std::move(out));
}

nb::tuple select_free(const OpsMatrix& a, const HostArray& mate) {
  const matchblas_ops_matrix_arrays v = a.view();
  expect_vector(mate, v.rows, "mate");
  if (!is<std::int32_t>(mate.dtype())) throw nb::type_error("mate must be int32");
  matchblas_ops_matrix* c = nullptr;
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_select_free(a.m.get(), static_cast<const std::int32_t*>(mate.data()), &c, &st);
  }
  if (st.status != MATCHBLAS_OK) return failed(st);
  OpsMatrix out;
  out.m.reset(c);
  return nb::make_tuple(st.status, message_of(st.message), std::move(out));
}

// ---- GPU: device arrays -------------------------------------------------------

// The caller's device CSR; every array on one device.
matchblas_device_csr device_csr(std::int64_t rows, std::int64_t cols, const DeviceArray& offsets,
                                const DeviceArray& columns, const DeviceArray& values) {
  expect_vector(offsets, rows + 1, "the index pointers");
  expect_vector(columns, -1, "the indices");
  expect_vector(values, std::int64_t(columns.shape(0)), "the values");
  if (!is<std::int32_t>(columns.dtype())) throw nb::type_error("the indices must be int32 on the GPU");
  if (offsets.device_id() != columns.device_id() || offsets.device_id() != values.device_id())
    throw nb::value_error("the matrix's arrays are on different GPUs");
  return matchblas_device_csr{rows,
                              cols,
                              std::int64_t(columns.shape(0)),
                              index_type_of(offsets.dtype(), "the index pointers"),
                              weight_type(values.dtype(), "the values"),
                              offsets.data(),
                              static_cast<const std::int32_t*>(columns.data()),
                              values.data(),
                              offsets.device_id()};
}

template <class Array>
void expect_on(const std::optional<Array>& a, int device, const char* what) {
  if (a && a->device_id() != device) throw nb::value_error((std::string(what) + " is on another GPU").c_str());
}

nb::tuple argmax_device(std::int64_t rows, std::int64_t cols, const DeviceArray& offsets, const DeviceArray& columns,
                        const DeviceArray& values, const std::optional<DeviceArray>& active,
                        const std::optional<DeviceArray>& eligible, const std::optional<DeviceArray>& floor_weight,
                        const std::optional<DeviceArray>& floor_vertex, DeviceArray best, DeviceArray best_weight,
                        std::uintptr_t stream) {
  const matchblas_device_csr a = device_csr(rows, cols, offsets, columns, values);
  last_addresses = {std::uintptr_t(a.offsets), std::uintptr_t(a.columns), std::uintptr_t(a.values)};
  expect_on(active, a.device, "row_mask");
  expect_on(eligible, a.device, "col_mask");
  expect_on(floor_weight, a.device, "the floor's weights");
  expect_on(floor_vertex, a.device, "the floor's vertices");
  const std::uint8_t* ar = mask_of(active, rows, "row_mask");
  const std::uint8_t* ec = mask_of(eligible, cols, "col_mask");
  if (floor_weight) {
    expect_vector(*floor_weight, cols, "the floor's weights");
    if (floor_weight->dtype() != values.dtype()) throw nb::type_error("the floor's weights must have the values' dtype");
  }
  if (floor_vertex) {
    expect_vector(*floor_vertex, cols, "the floor's vertices");
    if (!is<std::int32_t>(floor_vertex->dtype())) throw nb::type_error("the floor's vertices must be int32");
  }
  expect_vector(best, rows, "best");
  expect_vector(best_weight, rows, "best_weight");
  if (!is<std::int32_t>(best.dtype()) || best_weight.dtype() != values.dtype())
    throw nb::type_error("best must be int32 and best_weight of the values' dtype");
  if (best.device_id() != a.device || best_weight.device_id() != a.device)
    throw nb::value_error("the outputs are on another GPU");
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_argmax_device(&a, ar, ec, floor_weight ? floor_weight->data() : nullptr,
                                floor_vertex ? static_cast<const std::int32_t*>(floor_vertex->data()) : nullptr,
                                static_cast<std::int32_t*>(best.data()), best_weight.data(),
                                reinterpret_cast<void*>(stream), &st);
  }
  return nb::make_tuple(st.status, message_of(st.message));
}

nb::tuple assign_device(DeviceArray out, const std::optional<DeviceArray>& mask,
                        const std::optional<DeviceArray>& values, const std::optional<HostArray>& value,
                        std::uintptr_t stream) {
  expect_vector(out, -1, "out");
  const auto n = std::int64_t(out.shape(0));
  const int device = out.device_id();
  expect_on(mask, device, "mask");
  expect_on(values, device, "values");
  const std::uint8_t* m = mask_of(mask, n, "mask");
  const auto [vs, v] = assign_source(out, values, value);
  const matchblas_ops_type type = entry_type(out.dtype());
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_assign_device(out.data(), type, n, m, vs, v, device, reinterpret_cast<void*>(stream), &st);
  }
  return nb::make_tuple(st.status, message_of(st.message));
}

nb::tuple select_free_device(std::int64_t rows, std::int64_t cols, const DeviceArray& offsets,
                             const DeviceArray& columns, const DeviceArray& values, const DeviceArray& mate,
                             std::uintptr_t stream) {
  const matchblas_device_csr a = device_csr(rows, cols, offsets, columns, values);
  last_addresses = {std::uintptr_t(a.offsets), std::uintptr_t(a.columns), std::uintptr_t(a.values)};
  expect_vector(mate, rows, "mate");
  if (!is<std::int32_t>(mate.dtype())) throw nb::type_error("mate must be int32");
  if (mate.device_id() != a.device) throw nb::value_error("mate is on another GPU");
  auto c = std::make_unique<matchblas_device_csr>();
  matchblas_ops_status st{};
  {
    nb::gil_scoped_release release;
    matchblas_ops_select_free_device(&a, static_cast<const std::int32_t*>(mate.data()), c.get(),
                                     reinterpret_cast<void*>(stream), &st);
  }
  if (st.status != MATCHBLAS_OK) return nb::make_tuple(st.status, message_of(st.message), nb::none(), nb::none(), nb::none());
  // One owner for the three arrays: the device CSR goes with the last of them.
  matchblas_device_csr* held = c.release();
  nb::capsule owner(held, [](void* p) noexcept {
    auto* m = static_cast<matchblas_device_csr*>(p);
    matchblas_device_csr_free(m);
    delete m;
  });
  const int dev = held->device;
  const auto entries = std::size_t(held->entries);
  nb::ndarray<nb::cupy, std::int64_t, nb::ndim<1>> out_offsets(const_cast<void*>(held->offsets), {std::size_t(rows) + 1},
                                                               owner, {}, nb::dtype<std::int64_t>(),
                                                               nb::device::cuda::value, dev);
  nb::ndarray<nb::cupy, std::int32_t, nb::ndim<1>> out_columns(const_cast<std::int32_t*>(held->columns), {entries},
                                                               owner, {}, nb::dtype<std::int32_t>(),
                                                               nb::device::cuda::value, dev);
  nb::ndarray<nb::cupy, nb::ndim<1>> out_values(const_cast<void*>(held->values), {entries}, owner, {},
                                                values.dtype(), nb::device::cuda::value, dev);
  return nb::make_tuple(st.status, message_of(st.message), out_offsets, out_columns, out_values);
}

}  // namespace

void bind_ops(nb::module_& m) {
  nb::class_<OpsMatrix>(m, "OpsMatrix", "The library's copy of a matrix for the ops (ops.h).")
      .def_prop_ro("shape",
                   [](const OpsMatrix& a) {
                     const auto v = a.view();
                     return nb::make_tuple(v.rows, v.cols);
                   })
      .def_prop_ro("nnz", [](const OpsMatrix& a) { return a.view().entries; })
      .def_prop_ro("single", [](const OpsMatrix& a) { return a.view().value_type == MATCHBLAS_FLOAT; })
      .def(
          "arrays",
          [](const OpsMatrix& a) {
            // Read-only views of the library's arrays, alive as long as the matrix.
            const auto v = a.view();
            nb::handle self = nb::find(&a);
            const auto e = std::size_t(v.entries);
            nb::ndarray<nb::numpy, nb::ro, std::int64_t, nb::ndim<1>> offsets(v.offsets, {std::size_t(v.rows) + 1},
                                                                             self);
            nb::ndarray<nb::numpy, nb::ro, std::int32_t, nb::ndim<1>> columns(v.columns, {e}, self);
            nb::object values;
            if (v.value_type == MATCHBLAS_FLOAT)
              values = nb::cast(nb::ndarray<nb::numpy, nb::ro, float, nb::ndim<1>>(
                  static_cast<const float*>(v.values), {e}, self));
            else
              values = nb::cast(nb::ndarray<nb::numpy, nb::ro, double, nb::ndim<1>>(
                  static_cast<const double*>(v.values), {e}, self));
            return nb::make_tuple(offsets, columns, values);
          },
          "(offsets int64, columns int32, values): read-only views of the library's CSR.");
  m.def("ops_matrix", &matrix_create, nb::arg("rows"), nb::arg("cols"), nb::arg("layout"), nb::arg("pointers"),
        nb::arg("indices"), nb::arg("values"));
  m.def("ops_argmax", &argmax, nb::arg("a"), nb::arg("row_mask").none(), nb::arg("col_mask").none(),
        nb::arg("floor_weight").none(), nb::arg("floor_vertex").none(), nb::arg("backend"));
  m.def("ops_assign", &assign, nb::arg("out"), nb::arg("mask").none(), nb::arg("values").none(),
        nb::arg("value").none());
  m.def("ops_select", &select, nb::arg("a"), nb::arg("rows").none(), nb::arg("cols").none());
  m.def("ops_select_free", &select_free, nb::arg("a"), nb::arg("mate"));
  m.def("ops_argmax_device", &argmax_device, nb::arg("rows"), nb::arg("cols"), nb::arg("offsets"),
        nb::arg("columns"), nb::arg("values"), nb::arg("row_mask").none(), nb::arg("col_mask").none(),
        nb::arg("floor_weight").none(), nb::arg("floor_vertex").none(), nb::arg("best"), nb::arg("best_weight"),
        nb::arg("stream"));
  m.def("ops_assign_device", &assign_device, nb::arg("out"), nb::arg("mask").none(), nb::arg("values").none(),
        nb::arg("value").none(), nb::arg("stream"));
  m.def("ops_select_free_device", &select_free_device, nb::arg("rows"), nb::arg("cols"), nb::arg("offsets"),
        nb::arg("columns"), nb::arg("values"), nb::arg("mate"), nb::arg("stream"));
}

}  // namespace matchblas::python
