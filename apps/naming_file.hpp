// f(), with every matchblas error prefixed "FILE: " (unless it already
// starts so, like the readers' "FILE:LINE: reason") and of the same type; a
// std::bad_alloc becomes out_of_memory "FILE: out of memory while DOING"
// (DOING names the step: building the graph, running matcher 'NAME').
#pragma once
#include <exception>
#include <new>
#include <string>

#include "lib/error.hpp"

namespace matchblas::cli {

template <class F>
auto naming_file(const std::string& file, F f, const std::string& doing = "building the graph") -> decltype(f()) {
  const std::string shown = file == "-" ? "<stdin>" : file;  // as the readers call it
  const auto named = [&](const std::exception& e) {
    const std::string what = e.what();
    return what.rfind(shown + ":", 0) == 0 ? what : shown + ": " + what;
  };
  try {
    return f();
  } catch (const parse_error&) {
    throw;  // "FILE:LINE: reason" already
  } catch (const shape_error& e) {
    throw shape_error(named(e));
  } catch (const invalid_input& e) {
    throw invalid_input(named(e));
  } catch (const out_of_memory& e) {
    throw out_of_memory(named(e));
  } catch (const cuda_error& e) {
    throw cuda_error(named(e));
  } catch (const error& e) {
    throw error(named(e));
  } catch (const std::bad_alloc&) {
    throw out_of_memory(shown + ": out of memory while " + doing);
  }
}

}  // namespace matchblas::cli
