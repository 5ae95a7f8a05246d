#include "ui/i18n/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace attn::ui {

namespace {

QTranslator* load(const QLocale& locale, const QString& name, const QString& folder)
{
    auto* translator = new QTranslator(QCoreApplication::instance());
    if (translator->load(locale, name, QStringLiteral("_"), folder) &&
        QCoreApplication::installTranslator(translator))
        return translator;
    delete translator;
    return nullptr;
}

} // namespace

QList<QTranslator*> installTranslations(const QLocale& locale)
{
    QList<QTranslator*> installed;
    // Qt's first, so that the program's own strings win where both translate one.
    const QString qtFolder = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    if (QTranslator* qt = load(locale, QStringLiteral("qtbase"), qtFolder))
        installed.append(qt);
    if (QTranslator* own =
            load(locale, QStringLiteral("attention-explorer"), QStringLiteral(":/i18n")))
        installed.append(own);
    return installed;
}

} // namespace attn::ui
