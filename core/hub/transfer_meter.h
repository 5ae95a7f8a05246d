#pragma once

#include <QtGlobal>

namespace attn::core::hub {

// The speed of a download and the time it has left, for progress lines and bars. The speed is
// smoothed (an exponential moving average over samples at least half a second apart), so that
// a burst of buffered bytes does not make the time left jump.
class TransferMeter
{
public:
    // The bytes already there when timing starts (a resumed file) do not count as speed.
    void start(qint64 doneBytes, qint64 msecs)
    {
        m_lastBytes = doneBytes;
        m_lastMsecs = msecs;
        m_bytesPerSecond = -1;
    }
    void update(qint64 doneBytes, qint64 msecs)
    {
        const qint64 elapsed = msecs - m_lastMsecs;
        if (elapsed < kSampleMsecs)
            return;
        const double rate = 1000.0 * static_cast<double>(doneBytes - m_lastBytes) / elapsed;
        m_bytesPerSecond =
            m_bytesPerSecond < 0 ? rate : kWeight * rate + (1 - kWeight) * m_bytesPerSecond;
        m_lastBytes = doneBytes;
        m_lastMsecs = msecs;
    }
    // -1 until a first sample.
    double bytesPerSecond() const { return m_bytesPerSecond; }
    // -1 while unknown (no sample yet, or nothing moving).
    qint64 secondsLeft(qint64 doneBytes, qint64 totalBytes) const
    {
        if (m_bytesPerSecond <= 0)
            return -1;
        return static_cast<qint64>((totalBytes - doneBytes) / m_bytesPerSecond + 0.5);
    }

private:
    static constexpr qint64 kSampleMsecs = 500;
    static constexpr double kWeight = 0.3;
    qint64 m_lastBytes = 0;
    qint64 m_lastMsecs = 0;
    double m_bytesPerSecond = -1;
};

} // namespace attn::core::hub
