#pragma once
// Runs the attention-explorer executable as a user runs it, for the command-line suites.

#include "support/json_file.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace attn::test {

struct Run
{
    int code = -1; // -1: crashed or timed out
    QString out;
    QString err;
};

// `environment`: variables to set ("NAME=value") or, without '=', to remove.
inline Run runExecutable(const QString& executable, const QStringList& arguments,
                         const QString& workingDirectory = QString(),
                         const QStringList& environment = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("ATTN_VK_DEVICE")); // the device is chosen by each test
    for (const QString& variable : environment) {
        const qsizetype eq = variable.indexOf(QLatin1Char('='));
        if (eq < 0)
            env.remove(variable);
        else
            env.insert(variable.left(eq), variable.mid(eq + 1));
    }
    process.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(executable, arguments);
    if (!process.waitForFinished(120000)) {
        process.kill();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

#ifdef ATTN_EXPLORER_EXE
// The suite's own attention-explorer (tests/app/CMakeLists.txt names it).
inline Run runExplorer(const QStringList& arguments, const QString& workingDirectory = QString(),
                       const QStringList& environment = {})
{
    return runExecutable(QStringLiteral(ATTN_EXPLORER_EXE), arguments, workingDirectory,
                         environment);
}
#endif

} // namespace attn::test
