#pragma once

// Timing and memory helpers shared by attention-bench's single-layer and model cases.

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace attn::bench {

using Clock = std::chrono::steady_clock;

inline double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Budget
{
    int minReps;
    int maxReps;
    double milliseconds; // keep sampling until this much time is spent
};

// One warm-up (plans, pipelines, caches), then samples of `once` (which returns its own
// milliseconds) until minReps are taken and the budget is spent, or maxReps.
inline std::vector<double> sample(const Budget& budget, const std::function<double()>& once)
{
    once();
    std::vector<double> samples;
    const auto start = Clock::now();
    while (int(samples.size()) < budget.maxReps &&
           (int(samples.size()) < budget.minReps || millisecondsSince(start) < budget.milliseconds))
        samples.push_back(once());
    return samples;
}

// A field of /proc/self/status in MiB ("VmHWM", "VmRSS"), or -1.
inline double procStatusMiB(const char* field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1.0;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).simplified().split(' ').value(0).toDouble() / 1024.0;
    return -1.0;
}

// Resets the peak resident size (VmHWM) to the current one: "5" to /proc/self/clear_refs
// (Linux 4.0). False where the kernel or a sandbox does not allow it.
inline bool resetPeakRss()
{
    QFile refs(QStringLiteral("/proc/self/clear_refs"));
    return refs.open(QIODevice::WriteOnly) && refs.write("5") == 1;
}

// Writes `object` to `path` as indented JSON; returns 0, or 4 (after saying so) when it cannot.
inline int writeJsonFile(const QString& path, const QJsonObject& object)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(QJsonDocument(object).toJson()) < 0) {
        std::fprintf(stderr, "attention-bench: cannot write %s\n", qPrintable(path));
        return 4;
    }
    return 0;
}

} // namespace attn::bench
