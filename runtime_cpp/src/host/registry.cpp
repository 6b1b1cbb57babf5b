// The registry singleton and its report of every plugin candidate it considered.
#include "host_log.h"
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

}  // namespace mlxd
