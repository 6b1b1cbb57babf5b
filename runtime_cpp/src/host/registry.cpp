// The registry singleton, its report of every plugin candidate it considered, and the
// registration of a created backend (the same whether its plugin was dlopened or linked in).
#include "mlxd_log.h"
#include "registry_internal.h"

namespace mlxd {

namespace {

// A plugin built against another host or API is a build mistake worth an error; one that cannot
// load or start on this machine a warning; filtered and outscored candidates are routine.
log::Level reason_level(Reason r) {
  switch (r) {
    case Reason::abi:
    case Reason::api_version:
      return log::Level::error;
    case Reason::dlopen:
    case Reason::init:
      return log::Level::warning;
    default:
      return log::Level::debug;
  }
}

}  // namespace

const char* reason_name(Reason r) noexcept {
  switch (r) {
    case Reason::none:
      return "";
    case Reason::dlopen:
      return "dlopen";
    case Reason::abi:
      return "abi";
    case Reason::score:
      return "score";
    case Reason::init:
      return "init";
    case Reason::api_version:
      return "api_version";
    case Reason::filter:
      return "filter";
    case Reason::outscored:
      return "outscored";
  }
  return "unknown";
}

BackendRegistry& BackendRegistry::instance() {
  static BackendRegistry* registry = new BackendRegistry();  // never destroyed
  return *registry;
}

void BackendRegistry::record_locked(const Candidate& c, bool loaded, Reason reason,
                                    const std::string& message) {
  CandidateReport r;
  r.path = c.path;
  r.group = c.group;
  r.variant = c.variant;
  r.loaded = loaded;
  r.reason = reason;
  r.message = message;
  r.score = c.score;
  report_.push_back(r);
  if (loaded) {
    log::write(log::Level::info, "loaded backend " + c.full_name() + " from " + c.path +
                                     (message.empty() ? "" : " (" + message + ")"));
  } else {
    log::write(reason_level(reason),
               "skipped backend " + c.path + ": " + reason_name(reason) + ": " + message);
  }
}

std::vector<CandidateReport> BackendRegistry::report() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return report_;
}

// Adds an initialised backend to the loaded ones, unless its info() throws.
// Checks a created backend's interface version, then registers it. A backend
// of another version is deleted; its library stays mapped, since code of it
// may still be referenced.
bool BackendRegistry::register_locked(Candidate& c, BackendInterface* backend) {
  int version = backend->api_version();
  if (version != MLX_BACKEND_API_VERSION) {
    record_locked(c, false, Reason::api_version,
                  "api_version() is " + std::to_string(version) + ", the host expects " +
                      std::to_string(MLX_BACKEND_API_VERSION));
    try {
      delete backend;
    } catch (...) {
    }
    c.handle = nullptr;
    return false;
  }
  LoadedBackend lb;
  try {
    lb.info = backend->info();
  } catch (const std::exception& e) {
    record_locked(c, false, Reason::init, std::string("info() threw: ") + e.what());
    c.handle = nullptr;
    return false;
  }
  lb.backend = backend;
  lb.dl_handle = c.handle;
  lb.library_path = c.path;
  lb.group = c.group;
  lb.variant = c.variant;
  lb.score = c.has_score_fn ? c.score : lb.info.score;
  if (lb.info.device_count < 0) lb.info.device_count = 0;
  loaded_.push_back(std::move(lb));
  reindex_locked();
  const BackendInfo& info = loaded_.back().info;
  record_locked(c, true, Reason::none,
                "score " + std::to_string(c.score) + ", " + device_type_name(info.device_type) +
                    " x" + std::to_string(info.device_count));
  return true;
}

}  // namespace mlxd
