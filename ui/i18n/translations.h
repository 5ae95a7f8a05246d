#pragma once

#include <QList>
#include <QLocale>

class QTranslator;

namespace attn::ui {

// Installs the program's translation for `locale` (resources/translations, compiled in as
// :/i18n/attention-explorer_LANG.qm) and Qt's own (qtbase_LANG.qm from Qt's translations
// folder, where the system has it), trying the locale's UI languages in order. English is the
// source language: nothing is installed for it. Call after QApplication exists and before any
// widget is made, so that every tr() sees the translator. Returns the translators installed
// (children of the application), so that a test can remove them again.
QList<QTranslator*> installTranslations(const QLocale& locale);

} // namespace attn::ui
