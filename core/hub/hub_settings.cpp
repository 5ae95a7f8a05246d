#include "core/hub/hub_settings.h"

#include "core/error.h"
#include "core/model/model_loader.h"
#include "core/regular_file.h"

#include <QDir>

namespace attn::core::hub {

namespace {

// A token is a line of ASCII; the file is never large.
constexpr qint64 kMaxTokenFileBytes = 4096;

bool isTrue(const QString& value)
{
    const QString v = value.trimmed().toLower();
    return v == QLatin1String("1") || v == QLatin1String("true") || v == QLatin1String("yes") ||
           v == QLatin1String("on");
}

} // namespace

QString tokenFilePath()
{
    const QString path = qEnvironmentVariable("HF_TOKEN_PATH");
    return path.isEmpty() ? QDir(core::huggingFaceHomeFolder()).filePath(QStringLiteral("token"))
                          : path;
}

HubSettings HubSettings::fromEnvironment()
{
    HubSettings settings;
    settings.endpoint = qEnvironmentVariable("HF_ENDPOINT").trimmed();
    if (settings.endpoint.isEmpty())
        settings.endpoint = QStringLiteral("https://huggingface.co");
    while (settings.endpoint.endsWith('/'))
        settings.endpoint.chop(1);
    settings.cacheFolder = core::huggingFaceHubFolder();
    settings.offline = isTrue(qEnvironmentVariable("HF_HUB_OFFLINE"));
    settings.token = qEnvironmentVariable("HF_TOKEN").trimmed();
    if (!settings.token.isEmpty()) {
        settings.tokenSource = QStringLiteral("HF_TOKEN");
        return settings;
    }
    const QString path = tokenFilePath();
    try {
        settings.token = QString::fromUtf8(core::readRegularFile(path, kMaxTokenFileBytes))
                             .section('\n', 0, 0)
                             .trimmed();
        if (!settings.token.isEmpty())
            settings.tokenSource = path;
    } catch (const core::Error&) { // no token file: anonymous, as huggingface_hub is
    }
    return settings;
}

} // namespace attn::core::hub
