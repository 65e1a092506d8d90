#include "tileops_torch/errors.hpp"

#include <c10/util/Exception.h>

#include "tileops/core/error.hpp"

namespace tileops_torch {

void rethrow_for_torch() {
  // c10 errors built from a message alone carry no backtrace and no context, so Python shows
  // exactly this message (torch appends the C++ backtrace only when one was recorded).
  try {
    throw;
  } catch (const tileops::DTypeError& e) {
    throw c10::TypeError(e.what());
  } catch (const tileops::TypeError& e) {
    throw c10::TypeError(e.what());
  } catch (const tileops::ValueError& e) {
    throw c10::ValueError(e.what());
  } catch (const tileops::OpNotAvailableError& e) {
    throw c10::NotImplementedError(e.what());
  } catch (const tileops::DispatchError& e) {
    throw c10::NotImplementedError(e.what());
  } catch (const tileops::Error& e) {
    throw c10::Error(e.what());
  }
}

}  // namespace tileops_torch
