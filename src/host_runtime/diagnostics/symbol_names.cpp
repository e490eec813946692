#include "diagnostics/symbol_names.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace cohort::detail::host {

namespace {

// Calls `visit(symbol, name)` for every symbol of the ELF symbol table of
// the file at `path` until it returns true.
template <class Visit>
void for_each_symbol(const char* path, Visit visit) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st{};
  if (fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) > sizeof(ElfW(Ehdr))) {
    void* map = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      const auto* base = static_cast<const char*>(map);
      const auto* header = reinterpret_cast<const ElfW(Ehdr)*>(base);
      const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(base + header->e_shoff);
      bool done = false;
      for (unsigned i = 0; i < header->e_shnum && !done; ++i) {
        if (sections[i].sh_type != SHT_SYMTAB) continue;
        const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(base + sections[i].sh_offset);
        const char* names = base + sections[sections[i].sh_link].sh_offset;
        const std::size_t count = sections[i].sh_size / sizeof(ElfW(Sym));
        for (std::size_t s = 0; s < count && !done; ++s) done = visit(symbols[s], names + symbols[s].st_name);
      }
      munmap(map, static_cast<std::size_t>(st.st_size));
    }
  }
  close(fd);
}

// The file holding `address` and the offset of `address` in it as linked.
struct located {
  const char* path;
  std::uintptr_t offset;
};

std::optional<located> locate(const void* address, Dl_info& info) {
  if (!info.dli_fname) return std::nullopt;
  const auto* file = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
  // Shared objects and PIE executables are linked at 0 and loaded at dli_fbase.
  const std::uintptr_t load = file && file->e_type == ET_DYN ? reinterpret_cast<std::uintptr_t>(info.dli_fbase) : 0;
  const char* path = info.dli_fname[0] ? info.dli_fname : "/proc/self/exe";
  return located{path, reinterpret_cast<std::uintptr_t>(address) - load};
}

}  // namespace

std::optional<std::string> symbol_name(const void* address) {
  Dl_info info{};
  if (!dladdr(address, &info)) return std::nullopt;
  if (info.dli_sname && info.dli_saddr == address) return std::string(info.dli_sname);
  const auto where = locate(address, info);
  if (!where) return std::nullopt;
  std::optional<std::string> found;
  for_each_symbol(where->path, [&](const ElfW(Sym) & s, const char* name) {
    if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_value != where->offset) return false;
    found = name;
    return true;
  });
  return found;
}

std::optional<std::string> function_containing(const void* address) {
  Dl_info info{};
  void* symbol = nullptr;
  if (!dladdr1(address, &info, &symbol, RTLD_DL_SYMENT)) return std::nullopt;
  const auto* entry = static_cast<const ElfW(Sym)*>(symbol);
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const auto start = reinterpret_cast<std::uintptr_t>(info.dli_saddr);
  if (info.dli_sname && entry && a >= start && a < start + entry->st_size) return demangled(info.dli_sname);
  const auto where = locate(address, info);
  if (!where) return std::nullopt;
  std::optional<std::string> found;
  for_each_symbol(where->path, [&](const ElfW(Sym) & s, const char* name) {
    if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || where->offset < s.st_value || where->offset >= s.st_value + s.st_size)
      return false;
    found = demangled(name);
    return true;
  });
  return found;
}

std::optional<code_address> code_address_of(const void* address) {
  Dl_info info{};
  if (!dladdr(address, &info)) return std::nullopt;
  const auto where = locate(address, info);
  if (!where) return std::nullopt;
  // A path that holds once the process has ended and anywhere: the program
  // may be named "/proc/self/exe", or relative to the directory it started in.
  char path[PATH_MAX];
  if (realpath(where->path, path) == nullptr) return std::nullopt;
  return code_address{path, where->offset};
}

std::string demangled(const std::string& mangled) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                    std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

std::vector<tls_symbol> executable_thread_locals() {
  std::vector<tls_symbol> found;
  for_each_symbol("/proc/self/exe", [&](const ElfW(Sym) & s, const char* name) {
    if (ELF64_ST_TYPE(s.st_info) == STT_TLS && s.st_shndx != SHN_UNDEF)
      found.push_back({name, static_cast<std::uintptr_t>(s.st_value), static_cast<std::size_t>(s.st_size)});
    return false;
  });
  std::sort(found.begin(), found.end(), [](const tls_symbol& a, const tls_symbol& b) { return a.offset < b.offset; });
  return found;
}

}  // namespace cohort::detail::host
