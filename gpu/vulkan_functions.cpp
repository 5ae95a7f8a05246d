#include "vulkan_functions.h"

#include "fault_injection.h"
#include "vulkan_error.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace attn::gpu {

#define ATTN_VK_DEFINE(name) PFN_##name name = nullptr;
ATTN_VK_DEFINE(vkGetInstanceProcAddr)
ATTN_VK_DEFINE(vkEnumerateInstanceVersion)
ATTN_VK_GLOBAL_FUNCTIONS(ATTN_VK_DEFINE)
ATTN_VK_INSTANCE_FUNCTIONS(ATTN_VK_DEFINE)
#undef ATTN_VK_DEFINE

namespace {

// Guards the state below and every write to the pointers above. Each pointer is written before
// the first load that succeeds returns, and never after: threads computing on one instance
// while another is created only ever read them.
std::mutex g_mutex;
void* g_library = nullptr; // never closed: the pointers must outlive every Instance
std::string g_libraryPath;
bool g_instanceFunctionsLoaded = false;

std::string loaderPath()
{
    const char* value = std::getenv("ATTN_VK_LOADER");
    return value && *value ? value : "libvulkan.so.1";
}

[[noreturn]] void throwNoLoader(const std::string& reason)
{
    throw VulkanError(VK_ERROR_INCOMPATIBLE_DRIVER,
                      "cannot load the Vulkan loader (Debian package libvulkan1): " + reason);
}

template <typename Function> Function resolve(VkInstance instance, const char* name)
{
    return reinterpret_cast<Function>(vkGetInstanceProcAddr(instance, name));
}

} // namespace

void loadVulkanLoader()
{
    const std::string path = loaderPath();
    std::lock_guard lock(g_mutex);
    // The injected fault fails here, as a failed dlopen does, so its test covers this path.
    if (injectedFault() == Fault::NoLoader)
        throwNoLoader(path + ": injected by ATTN_VK_FAULT=no-loader");
    if (g_library && path == g_libraryPath)
        return;
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* reason = dlerror();
        throwNoLoader(reason ? reason : path);
    }
    if (g_library) {
        // ATTN_VK_LOADER changed once a loader was in use (tests do that): another name for the
        // same library is that library; another loader cannot replace the pointers in use.
        dlclose(library); // g_library holds its own reference
        if (library != g_library)
            throwNoLoader(path + " is not the loader in use, " + g_libraryPath);
        return;
    }
    const auto getInstanceProcAddr =
        reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
    if (!getInstanceProcAddr) {
        dlclose(library);
        throwNoLoader(path + " exports no vkGetInstanceProcAddr");
    }
    vkGetInstanceProcAddr = getInstanceProcAddr;
    vkEnumerateInstanceVersion =
        resolve<PFN_vkEnumerateInstanceVersion>(VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
    const char* missing = nullptr;
#define ATTN_VK_LOAD_GLOBAL(name)                                                                  \
    name = resolve<PFN_##name>(VK_NULL_HANDLE, #name);                                             \
    if (!name && !missing)                                                                         \
        missing = #name;
    ATTN_VK_GLOBAL_FUNCTIONS(ATTN_VK_LOAD_GLOBAL)
#undef ATTN_VK_LOAD_GLOBAL
    // Left open on failure: the pointers just written point into it (the next try rewrites
    // them, as no Instance can exist yet to call them).
    if (missing)
        throwNoLoader(path + " has no " + missing);
    g_library = library;
    g_libraryPath = path;
}

// Several Instances live at once (each VulkanBackend owns one; listDevices makes a short-lived
// one) and the pointers are process-wide. They are resolved from the first instance and never
// rewritten, since a rewrite would race with other threads' calls. Each later instance must
// resolve every name to the very same pointer, so each pointer is one that the spec allows
// with that instance's handles, however long the first instance lives. The Khronos loader
// passes: it returns its exported trampolines, which dispatch on the handle, for any instance
// (the functions the executable called when it linked libvulkan). A loader that gave each
// instance its own pointers would fail here, and that backend fall back to the CPU, rather than
// call through pointers of another, maybe destroyed, instance.
void loadInstanceFunctions(VkInstance instance)
{
    std::lock_guard lock(g_mutex);
    const char* missing = nullptr;
    const char* differs = nullptr;
#define ATTN_VK_LOAD_INSTANCE(name)                                                                \
    {                                                                                              \
        const auto entry = resolve<PFN_##name>(instance, #name);                                   \
        if (!g_instanceFunctionsLoaded)                                                            \
            name = entry;                                                                          \
        else if (entry != name && !differs)                                                        \
            differs = #name;                                                                       \
        if (!entry && !missing)                                                                    \
            missing = #name;                                                                       \
    }
    ATTN_VK_INSTANCE_FUNCTIONS(ATTN_VK_LOAD_INSTANCE)
#undef ATTN_VK_LOAD_INSTANCE
    g_instanceFunctionsLoaded = true;
    if (missing)
        throw VulkanError(std::string("vkGetInstanceProcAddr(") + missing + ")",
                          VK_ERROR_INCOMPATIBLE_DRIVER);
    if (differs)
        throw VulkanError(std::string("vkGetInstanceProcAddr(") + differs + ")",
                          VK_ERROR_INCOMPATIBLE_DRIVER,
                          "another pointer than for the first instance");
}

} // namespace attn::gpu
