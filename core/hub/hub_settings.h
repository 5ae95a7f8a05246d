#pragma once

#include <QString>

namespace attn::core::hub {

// What huggingface_hub reads from the environment (its constants.py), read the same way, so
// that Python and the explorer share one cache and one login.
struct HubSettings
{
    QString endpoint;     // HF_ENDPOINT, else https://huggingface.co; no trailing '/'
    QString cacheFolder;  // HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub
    QString token;        // HF_TOKEN, else the token file's first line; "" for none
    QString tokenSource;  // "HF_TOKEN" or the token file's path, for messages
    bool offline = false; // HF_HUB_OFFLINE=1 (or true, yes, on)

    static HubSettings fromEnvironment();
};

// The token file huggingface-cli login writes: HF_TOKEN_PATH, else HF_HOME/token.
QString tokenFilePath();

} // namespace attn::core::hub
