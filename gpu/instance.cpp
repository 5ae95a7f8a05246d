#include "instance.h"

#include "fault_injection.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::gpu {
namespace {

std::atomic<int> g_validationMessages{0};

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool validationRequested()
{
    const char* value = std::getenv("ATTN_VK_VALIDATION");
    return value && std::string_view(value) == "1";
}

VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user)
{
    ++g_validationMessages;
    if (user)
        ++*static_cast<std::atomic<int>*>(user);
    const char* level =
        (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
    std::fprintf(stderr, "vulkan validation %s: %s\n", level,
                 data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE; // never abort the call that triggered the message
}

bool layerAvailable(const char* name)
{
    std::uint32_t count = 0;
    if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS)
        return false;
    std::vector<VkLayerProperties> layers(count);
    if (vkEnumerateInstanceLayerProperties(&count, layers.data()) < 0)
        return false;
    for (const VkLayerProperties& layer : layers)
        if (std::strcmp(layer.layerName, name) == 0)
            return true;
    return false;
}

} // namespace

int validationMessageCount()
{
    return g_validationMessages.load();
}

Instance Instance::create()
{
    // No loader (ATTN_VK_FAULT=no-loader included) throws here.
    loadVulkanLoader();
    if (injectedFault() == Fault::Instance)
        throw VulkanError("vkCreateInstance", VK_ERROR_INITIALIZATION_FAILED, "injected");

    Instance instance;
    std::uint32_t loaderVersion = VK_API_VERSION_1_0;
    // vkEnumerateInstanceVersion is Vulkan 1.1; a 1.0 loader cannot run our shaders.
    if (vkEnumerateInstanceVersion)
        check(vkEnumerateInstanceVersion(&loaderVersion), "vkEnumerateInstanceVersion");
    if (loaderVersion < VK_API_VERSION_1_1)
        throw VulkanError("vkEnumerateInstanceVersion", VK_ERROR_INCOMPATIBLE_DRIVER,
                          "the Vulkan loader is older than 1.1");
    instance.m_apiVersion =
        loaderVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : loaderVersion;

    VkApplicationInfo app{};

    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "Attention Explorer";
    app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
    app.pEngineName = "attention_gpu";
    app.apiVersion = instance.m_apiVersion;

    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    const bool validation = validationRequested();
    if (validation) {
        if (layerAvailable(kValidationLayer)) {
            layers.push_back(kValidationLayer);
            extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        } else {
            std::fprintf(stderr,
                         "ATTN_VK_VALIDATION=1 but %s is not installed "
                         "(Debian: vulkan-validationlayers)\n",
                         kValidationLayer);
        }
    }
    instance.m_messages = std::make_unique<std::atomic<int>>(0);

    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{};

    messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onDebugMessage;
    messengerInfo.pUserData = instance.m_messages.get();

    VkInstanceCreateInfo info{};

    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = std::uint32_t(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = std::uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    // Chained so that messages from vkCreateInstance/vkDestroyInstance are caught too.
    if (!layers.empty())
        info.pNext = &messengerInfo;
    check(vkCreateInstance(&info, nullptr, &instance.m_instance), "vkCreateInstance");
    loadInstanceFunctions(instance.m_instance);

    if (!layers.empty()) {
        auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance.m_instance, "vkCreateDebugUtilsMessengerEXT"));
        if (!createMessenger)
            throw VulkanError("vkGetInstanceProcAddr(vkCreateDebugUtilsMessengerEXT)",
                              VK_ERROR_EXTENSION_NOT_PRESENT);
        check(createMessenger(instance.m_instance, &messengerInfo, nullptr, &instance.m_messenger),
              "vkCreateDebugUtilsMessengerEXT");
    }
    return instance;
}

Instance::Instance(Instance&& other) noexcept
    : m_instance(std::exchange(other.m_instance, VK_NULL_HANDLE)),
      m_messenger(std::exchange(other.m_messenger, VK_NULL_HANDLE)),
      m_apiVersion(other.m_apiVersion), m_messages(std::move(other.m_messages))
{
}

Instance& Instance::operator=(Instance&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_instance = std::exchange(other.m_instance, VK_NULL_HANDLE);
        m_messenger = std::exchange(other.m_messenger, VK_NULL_HANDLE);
        m_apiVersion = other.m_apiVersion;
        m_messages = std::move(other.m_messages);
    }
    return *this;
}

Instance::~Instance()
{
    destroy();
}

void Instance::destroy() noexcept
{
    if (m_messenger != VK_NULL_HANDLE) {
        auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroyMessenger)
            destroyMessenger(m_instance, m_messenger, nullptr);
        m_messenger = VK_NULL_HANDLE;
    }
    // vkDestroyInstance is null only if the loader lacked it (loadInstanceFunctions threw).
    if (m_instance != VK_NULL_HANDLE && vkDestroyInstance) {
        vkDestroyInstance(m_instance, nullptr);
        m_instance = VK_NULL_HANDLE;
    }
}

} // namespace attn::gpu
