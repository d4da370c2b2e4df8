// The coarse Dulmage-Mendelsohn blocks of a maximum matching (see
// dm_blocks.hpp for source, guarantee and cost).
#include "matchers/bipartite/dm_blocks.hpp"

namespace matchblas {

template <class W>
DmBlocks coarse_dm_blocks(const Csr<W>& a, const Csr<W>& at, const BipartiteMates& maximum) {
  const vertex_t m = a.n_rows, n = a.n_cols;
  DmBlocks d;
  d.row_block.assign(m, DmBlocks::square);
  d.col_block.assign(n, DmBlocks::square);
  // Vertical: alternating paths from the free rows (a column's row is its
  // mate: a free column there would be an augmenting path).
  std::vector<vertex_t> queue;
  for (vertex_t i = 0; i < m; ++i)
    if (maximum.row_mate[i] < 0) {
      d.row_block[i] = DmBlocks::vertical;
      queue.push_back(i);
    }
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (vertex_t j : a.row_cols(queue[q]))
      if (d.col_block[j] != DmBlocks::vertical) {
        d.col_block[j] = DmBlocks::vertical;
        const vertex_t k = maximum.col_mate[j];
        if (d.row_block[k] != DmBlocks::vertical) {
          d.row_block[k] = DmBlocks::vertical;
          queue.push_back(k);
        }
      }
  // Horizontal: alternating paths from the free columns.
  queue.clear();
  for (vertex_t j = 0; j < n; ++j)
    if (maximum.col_mate[j] < 0) {
      d.col_block[j] = DmBlocks::horizontal;
      queue.push_back(j);
    }
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (vertex_t i : at.row_cols(queue[q]))
      if (d.row_block[i] != DmBlocks::horizontal) {
        d.row_block[i] = DmBlocks::horizontal;
        const vertex_t k = maximum.row_mate[i];
        if (d.col_block[k] != DmBlocks::horizontal) {
          d.col_block[k] = DmBlocks::horizontal;
          queue.push_back(k);
        }
      }
  d.local_row.resize(m);
  d.local_col.resize(n);
  for (vertex_t i = 0; i < m; ++i) {
    d.local_row[i] = static_cast<vertex_t>(d.rows[d.row_block[i]].size());
    d.rows[d.row_block[i]].push_back(i);
  }
  for (vertex_t j = 0; j < n; ++j) {
    d.local_col[j] = static_cast<vertex_t>(d.cols[d.col_block[j]].size());
    d.cols[d.col_block[j]].push_back(j);
  }
  return d;
}

template <class W>
Csr<W> dm_block(const Csr<W>& a, const DmBlocks& d, int b, bool transposed) {
  const std::vector<vertex_t>& rows = transposed ? d.cols[b] : d.rows[b];
  const std::vector<unsigned char>& col_block = transposed ? d.row_block : d.col_block;
  const std::vector<vertex_t>& local_col = transposed ? d.local_row : d.local_col;
  Csr<W> s;
  s.n_rows = static_cast<vertex_t>(rows.size());
  s.n_cols = static_cast<vertex_t>((transposed ? d.rows[b] : d.cols[b]).size());
  s.offsets.assign(1, 0);
  s.offsets.reserve(rows.size() + 1);
  for (vertex_t i : rows) {
    for (offset_t k = a.offsets[i]; k < a.offsets[i + 1]; ++k)
      if (col_block[a.cols[k]] == b) {
        s.cols.push_back(local_col[a.cols[k]]);
        s.weights.push_back(a.weights[k]);
      }
    s.offsets.push_back(static_cast<offset_t>(s.cols.size()));
  }
  return s;
}

void add_dm_block(BipartiteMates& r, const BipartiteMates& s, const DmBlocks& d, int b, bool transposed) {
  const std::vector<vertex_t>& rows = d.rows[b];
  const std::vector<vertex_t>& cols = d.cols[b];
  const std::vector<vertex_t>& row_mate = transposed ? s.col_mate : s.row_mate;
  const std::vector<vertex_t>& col_mate = transposed ? s.row_mate : s.col_mate;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (row_mate[i] >= 0) r.row_mate[rows[i]] = cols[row_mate[i]];
  for (std::size_t j = 0; j < cols.size(); ++j)
    if (col_mate[j] >= 0) r.col_mate[cols[j]] = rows[col_mate[j]];
  r.matched += s.matched;
}

template DmBlocks coarse_dm_blocks(const Csr<double>&, const Csr<double>&, const BipartiteMates&);
template Csr<double> dm_block(const Csr<double>&, const DmBlocks&, int, bool);

}  // namespace matchblas
