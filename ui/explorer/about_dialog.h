#pragma once

#include "core/backend_factory.h"

#include <QDialog>
#include <QString>

class QLabel;

namespace attn::ui {

// Help > About: the version, the licence (its whole text on a second tab), the versions of
// Qt, Eigen, QCustomPlot and Vulkan the program was built with and runs on, and the backend
// computing now. "Copy Details" puts the same facts on the clipboard as plain text, for a
// bug report.
class AboutDialog : public QDialog
{
    Q_OBJECT

public:
    // `backend` and `device`: what computes now (ComputeController::backendName() and
    // deviceName(), e.g. "Vulkan" and "llvmpipe (LLVM 15.0.6, 256 bits)"). For a Vulkan
    // backend the device's Vulkan version and driver are looked up among `backends`' devices.
    // `reason`: why that backend (the factory's notice, in full), shown when there is one.
    AboutDialog(const core::BackendFactory& backends, const QString& backend, const QString& device,
                const QString& reason = QString(), QWidget* parent = nullptr);

    // The facts the dialog shows, one "name: value" a line.
    QString details() const { return m_details; }
    // The licence's full text (GPL-3.0-or-later, docs/LICENSE compiled in).
    static QString licenceText();

private:
    QString m_details;
};

} // namespace attn::ui
