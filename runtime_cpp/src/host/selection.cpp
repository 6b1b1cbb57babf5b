// Choosing among discovered plugins: name and custom filters, then the best score of each group.
#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "mlxd_log.h"
#include "registry_internal.h"

namespace mlxd {

namespace {

// Why the name patterns turn the candidate away; empty when they let it through.
std::string name_filter_rejection(const BackendFilter& filter, const std::string& full,
                                  const std::string& group) {
  bool allowed = filter.allowed_names.empty();
  for (const auto& p : filter.allowed_names) {
    if (glob_match(p, full, group)) allowed = true;
  }
  std::string blocked_by;
  for (const auto& p : filter.blocked_names) {
    if (glob_match(p, full, group)) blocked_by = p;
  }
  if (!allowed) return "'" + full + "' matches no allowed name pattern";
  if (!blocked_by.empty()) return "'" + full + "' matches blocked pattern '" + blocked_by + "'";
  return "";
}

// MLX_BACKEND: comma-separated fnmatch patterns on full names ("cpu-avx2",
// "cpu-avx*", "cpu" for the plain one). A group that a pattern names (the
// pattern up to its first '-') admits only the candidates one of them matches,
// so that any variant can be forced; the groups no pattern names are left
// alone. Why it turns the candidate away; empty when it lets it through.
std::string forced_rejection(const std::string& full, const std::string& group) {
  const char* env = std::getenv("MLX_BACKEND");
  if (env == nullptr || *env == '\0') return "";
  const std::string list = env;
  bool governed = false, named = false;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = std::min(list.find(',', start), list.size());
    const std::string pattern = list.substr(start, end - start);
    start = end + 1;
    if (pattern.empty()) continue;
    const std::string pattern_group = pattern.substr(0, pattern.find('-'));
    if (fnmatch(pattern_group.c_str(), group.c_str(), 0) != 0) continue;
    governed = true;
    if (fnmatch(pattern.c_str(), full.c_str(), 0) == 0) named = true;
  }
  if (!governed || named) return "";
  return "MLX_BACKEND='" + list + "' forces another backend of group '" + group + "'";
}

// The application's filter decides on a scored candidate; one that throws rejects it.
bool custom_filter_keeps(const BackendFilter& filter, const std::string& name, int score) {
  BackendInfo pre;
  pre.name = name;
  pre.score = score;
  try {
    return filter.custom_filter(pre);
  } catch (const std::exception& e) {
    log::write(log::Level::warning, std::string("custom backend filter threw: ") + e.what());
    return false;
  }
}

}  // namespace

// Candidates grouped by name stem; groups keep the discovery order of their first member.
std::vector<std::vector<BackendRegistry::Candidate>> BackendRegistry::group_by_stem(
    std::vector<Candidate> candidates) {
  std::vector<std::vector<Candidate>> groups;
  for (auto& c : candidates) {
    auto same_group = [&](const std::vector<Candidate>& g) { return g.front().group == c.group; };
    auto it = std::find_if(groups.begin(), groups.end(), same_group);
    if (it == groups.end()) it = groups.insert(groups.end(), std::vector<Candidate>());
    it->push_back(std::move(c));
  }
  return groups;
}

// Name filters, probe, custom filter; false (recorded) when the candidate drops out.
bool BackendRegistry::admit_locked(Candidate& c, const BackendFilter* filter) {
  std::string forced = forced_rejection(c.full_name(), c.group);
  if (!forced.empty()) {
    record_locked(c, false, Reason::filter, forced);
    return false;
  }
  if (filter != nullptr) {
    std::string rejection = name_filter_rejection(*filter, c.full_name(), c.group);
    if (!rejection.empty()) {
      record_locked(c, false, Reason::filter, rejection);
      return false;
    }
  }
  if (!probe_locked(c)) return false;
  if (filter != nullptr && filter->custom_filter &&
      !custom_filter_keeps(*filter, c.full_name(), c.score)) {
    c.close_library();
    record_locked(c, false, Reason::filter, "rejected by the custom filter");
    return false;
  }
  return true;
}

// Initialises the highest scoring candidate that initialises; the others are outscored.
bool BackendRegistry::load_highest_score_locked(std::vector<Candidate>& admitted) {
  // Equal scores keep discovery (file name) order.
  std::stable_sort(admitted.begin(), admitted.end(),
                   [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
  const Candidate* winner = nullptr;
  for (auto& c : admitted) {
    if (winner != nullptr) {
      c.close_library();
      record_locked(c, false, Reason::outscored,
                    "outscored by " + winner->path + " (score " + std::to_string(winner->score) +
                        " > " + std::to_string(c.score) + ")");
      continue;
    }
    if (init_locked(c)) winner = &c;
  }
  return winner != nullptr;
}

// Loads the winner of one group (all members share its stem); false when none loads.
bool BackendRegistry::load_group_locked(std::vector<Candidate>& members,
                                        const BackendFilter* filter) {
  const std::string group = members.front().group;
  if (loaded_of_group_locked(group) != nullptr) {
    for (auto& c : members) {
      record_locked(c, false, Reason::outscored,
                    "group '" + group + "' already has a loaded backend");
    }
    return false;
  }
  std::vector<Candidate> admitted;
  for (auto& c : members) {
    if (admit_locked(c, filter)) admitted.push_back(std::move(c));
  }
  return load_highest_score_locked(admitted);
}

int BackendRegistry::load_all(const BackendFilter* filter) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  int newly_loaded = 0;
  for (auto& members : group_by_stem(discover_locked())) {
    if (load_group_locked(members, filter)) ++newly_loaded;
  }
  return newly_loaded;
}

BackendInterface* BackendRegistry::load_best(const std::string& name) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (const LoadedBackend* lb = loaded_of_group_locked(name)) return lb->backend;
  BackendFilter only;
  only.allowed_names = {name, name + "-*"};
  size_t before = report_.size();
  load_all(&only);
  if (const LoadedBackend* lb = loaded_of_group_locked(name)) return lb->backend;
  std::string why;
  for (size_t i = before; i < report_.size(); ++i) {
    if (report_[i].group != name) continue;
    why += "\n  " + report_[i].path + ": " + reason_name(report_[i].reason) + ": " +
           report_[i].message;
  }
  std::string paths = join_path_list(search_paths_);
  throw std::runtime_error(
      "no backend '" + name + "' could be loaded from " +
      (paths.empty() ? std::string("(no search path)") : paths) +
      (why.empty() ? std::string(": no libmlx-" + name + "*" + kPluginSuffix + " found") : why));
}

}  // namespace mlxd
