#include "symbol_names.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace cohort::detail::host {

namespace {

// Looks `offset` up among the FUNC symbols of the ELF file at `path`; runs
// only when a diagnostic is being worded.
std::optional<std::string> symtab_name(const char* path, std::uintptr_t offset) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> found;
  if (fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) > sizeof(ElfW(Ehdr))) {
    void* map = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      const auto* base = static_cast<const char*>(map);
      const auto* header = reinterpret_cast<const ElfW(Ehdr)*>(base);
      const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(base + header->e_shoff);
      for (unsigned i = 0; i < header->e_shnum && !found; ++i) {
        if (sections[i].sh_type != SHT_SYMTAB) continue;
        const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(base + sections[i].sh_offset);
        const char* names = base + sections[sections[i].sh_link].sh_offset;
        const std::size_t count = sections[i].sh_size / sizeof(ElfW(Sym));
        for (std::size_t s = 0; s < count; ++s) {
          if (ELF64_ST_TYPE(symbols[s].st_info) == STT_FUNC && symbols[s].st_value == offset) {
            found = names + symbols[s].st_name;
            break;
          }
        }
      }
      munmap(map, static_cast<std::size_t>(st.st_size));
    }
  }
  close(fd);
  return found;
}

}  // namespace

std::optional<std::string> symbol_name(const void* address) {
  Dl_info info{};
  if (!dladdr(address, &info)) return std::nullopt;
  if (info.dli_sname && info.dli_saddr == address) return std::string(info.dli_sname);
  if (!info.dli_fname) return std::nullopt;
  const auto* file = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
  // Shared objects and PIE executables are linked at 0 and loaded at dli_fbase.
  const std::uintptr_t load = file && file->e_type == ET_DYN ? reinterpret_cast<std::uintptr_t>(info.dli_fbase) : 0;
  const char* path = info.dli_fname[0] ? info.dli_fname : "/proc/self/exe";
  return symtab_name(path, reinterpret_cast<std::uintptr_t>(address) - load);
}

}  // namespace cohort::detail::host
