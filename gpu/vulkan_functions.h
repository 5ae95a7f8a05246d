#pragma once

// The Vulkan entry points gpu/ calls, loaded at run time: the executable does not link
// libvulkan.so.1, so it starts (and computes on the CPU) on a machine without the loader.
// VK_NO_PROTOTYPES is set for everything that links attention_gpu; the names below take the
// place of the loader's exported functions inside attn::gpu, so call sites read as usual.
// Not vulkan.hpp's vk::DynamicLoader (header 1.3.239): it throws "Failed to load vulkan
// library!" without dlerror's reason, hides the handle the same-loader check compares, and
// costs ~8 s of parsing per file (0.2 s for vulkan.h) to replace a dlopen and a dlsym.
#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

namespace attn::gpu {

// Global commands, resolved with vkGetInstanceProcAddr(VK_NULL_HANDLE, name).
#define ATTN_VK_GLOBAL_FUNCTIONS(X)                                                                \
    X(vkCreateInstance)                                                                            \
    X(vkEnumerateInstanceLayerProperties)

// Instance- and device-level commands, resolved with vkGetInstanceProcAddr(instance, name);
// device commands got that way are the loader's trampolines (they dispatch on the handle).
#define ATTN_VK_INSTANCE_FUNCTIONS(X)                                                              \
    X(vkDestroyInstance)                                                                           \
    X(vkEnumeratePhysicalDevices)                                                                  \
    X(vkGetPhysicalDeviceProperties)                                                               \
    X(vkGetPhysicalDeviceProperties2)                                                              \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                                    \
    X(vkGetPhysicalDeviceMemoryProperties)                                                         \
    X(vkCreateDevice)                                                                              \
    X(vkDestroyDevice)                                                                             \
    X(vkDeviceWaitIdle)                                                                            \
    X(vkGetDeviceQueue)                                                                            \
    X(vkQueueSubmit)                                                                               \
    X(vkAllocateMemory)                                                                            \
    X(vkFreeMemory)                                                                                \
    X(vkMapMemory)                                                                                 \
    X(vkCreateBuffer)                                                                              \
    X(vkDestroyBuffer)                                                                             \
    X(vkCreateBufferView)                                                                          \
    X(vkDestroyBufferView)                                                                         \
    X(vkGetBufferMemoryRequirements)                                                               \
    X(vkBindBufferMemory)                                                                          \
    X(vkCreateShaderModule)                                                                        \
    X(vkDestroyShaderModule)                                                                       \
    X(vkCreatePipelineCache)                                                                       \
    X(vkDestroyPipelineCache)                                                                      \
    X(vkGetPipelineCacheData)                                                                      \
    X(vkCreateDescriptorSetLayout)                                                                 \
    X(vkDestroyDescriptorSetLayout)                                                                \
    X(vkCreatePipelineLayout)                                                                      \
    X(vkDestroyPipelineLayout)                                                                     \
    X(vkCreateComputePipelines)                                                                    \
    X(vkDestroyPipeline)                                                                           \
    X(vkCreateDescriptorPool)                                                                      \
    X(vkDestroyDescriptorPool)                                                                     \
    X(vkAllocateDescriptorSets)                                                                    \
    X(vkUpdateDescriptorSets)                                                                      \
    X(vkCreateCommandPool)                                                                         \
    X(vkDestroyCommandPool)                                                                        \
    X(vkResetCommandPool)                                                                          \
    X(vkAllocateCommandBuffers)                                                                    \
    X(vkBeginCommandBuffer)                                                                        \
    X(vkEndCommandBuffer)                                                                          \
    X(vkCreateFence)                                                                               \
    X(vkDestroyFence)                                                                              \
    X(vkResetFences)                                                                               \
    X(vkWaitForFences)                                                                             \
    X(vkCreateQueryPool)                                                                           \
    X(vkDestroyQueryPool)                                                                          \
    X(vkGetQueryPoolResults)                                                                       \
    X(vkCmdBindPipeline)                                                                           \
    X(vkCmdBindDescriptorSets)                                                                     \
    X(vkCmdPushConstants)                                                                          \
    X(vkCmdDispatch)                                                                               \
    X(vkCmdDispatchIndirect)                                                                       \
    X(vkCmdFillBuffer)                                                                             \
    X(vkCmdCopyBuffer)                                                                             \
    X(vkCmdPipelineBarrier)                                                                        \
    X(vkCmdResetQueryPool)                                                                         \
    X(vkCmdWriteTimestamp)

#define ATTN_VK_DECLARE(name) extern PFN_##name name;
// From dlsym on the loader.
ATTN_VK_DECLARE(vkGetInstanceProcAddr)
// Vulkan 1.1; null on a 1.0 loader, which Instance::create refuses.
ATTN_VK_DECLARE(vkEnumerateInstanceVersion)
ATTN_VK_GLOBAL_FUNCTIONS(ATTN_VK_DECLARE)
ATTN_VK_INSTANCE_FUNCTIONS(ATTN_VK_DECLARE)
#undef ATTN_VK_DECLARE

// Opens the Vulkan loader (ATTN_VK_LOADER, else libvulkan.so.1) and resolves the global
// commands. Thread-safe; the library is opened once and never closed. Throws VulkanError
// ("cannot load the Vulkan loader ...") when it is missing or unusable, and when
// ATTN_VK_FAULT=no-loader pretends that it is.
void loadVulkanLoader();

// Resolves the instance- and device-level commands through `instance`; Instance::create calls
// it for every new instance. Throws VulkanError when one is missing.
void loadInstanceFunctions(VkInstance instance);

} // namespace attn::gpu
