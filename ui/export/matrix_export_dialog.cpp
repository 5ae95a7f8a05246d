#include "ui/export/export_dialog.h"

#include "ui/document/preferences.h"
#include "ui/export/export_dialog_p.h"

#include "core/atomic_file.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

// Export Matrix: one stage of one head as CSV, NumPy, JSON or LaTeX.
namespace attn::ui {

using export_detail::selectData;
using export_detail::sentence;

namespace {

struct MatrixChoice
{
    MatrixFormat format;
    const char* key;
    const char* label;
    const char* suffix;
};
constexpr MatrixChoice kMatrixFormats[] = {
    {MatrixFormat::Csv, "csv", QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "CSV"), ".csv"},
    {MatrixFormat::Npy, "npy", QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "NumPy array"), ".npy"},
    {MatrixFormat::Json, "json",
     QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "JSON with token labels"), ".json"},
    {MatrixFormat::LatexTable, "table",
     QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "LaTeX tabular"), ".tex"},
    {MatrixFormat::LatexPgfplots, "pgfplots",
     QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "LaTeX pgfplots matrix plot"), ".tex"},
};

bool isLatex(MatrixFormat format)
{
    return format == MatrixFormat::LatexTable || format == MatrixFormat::LatexPgfplots;
}

} // namespace

void ExportDialog::exportMatrix()
{
    if (!m_source.result)
        return;
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("matrixExport"));
    dialog->setWindowTitle(tr("Export Matrix"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const preferences::ExportChoices stored = preferences::exportChoices();

    auto* stage = new QComboBox;
    stage->setObjectName(QStringLiteral("stage"));
    for (const QString& name : stageNames())
        stage->addItem(QString(name).replace(QLatin1Char('-'), QLatin1Char(' ')), name);
    selectData(stage, stored.matrixStage.value_or(stageName(Stage::Weights)));
    auto* head = new QComboBox;
    head->setObjectName(QStringLiteral("matrixHead"));
    for (std::size_t h = 0; h < m_source.result->heads.size(); ++h)
        head->addItem(tr("Head %1").arg(h + 1), int(h));
    selectData(head, std::max(0, settings().head >= 0 ? settings().head : m_source.spec.head));
    auto* format = new QComboBox;
    format->setObjectName(QStringLiteral("matrixFormat"));
    for (const MatrixChoice& choice : kMatrixFormats)
        format->addItem(tr(choice.label) +
                            QStringLiteral(" (%1)").arg(QLatin1String(choice.suffix)),
                        QLatin1String(choice.key));
    selectData(format, stored.matrixFormat.value_or(QStringLiteral("csv")));
    auto* precision = new QSpinBox;
    precision->setObjectName(QStringLiteral("matrixPrecision"));
    precision->setRange(0, 6);
    precision->setValue(m_precision->value());
    auto* note = new QLabel;
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);

    auto choice = [format] {
        for (const MatrixChoice& c : kMatrixFormats)
            if (format->currentData().toString() == QLatin1String(c.key))
                return c;
        return kMatrixFormats[0];
    };
    auto update = [=] {
        const Stage s = parseStage(stage->currentData().toString()).value_or(Stage::Weights);
        head->setEnabled(s != Stage::Input && s != Stage::Concat &&
                         s != Stage::Output); // not per head
        const bool latex = isLatex(choice().format);
        precision->setEnabled(latex);
        note->setText(latex ? tr("Numbers rounded to the decimals chosen.")
                            : tr("Every value is written exactly (shortest round-trip digits)."));
    };
    connect(stage, &QComboBox::currentIndexChanged, dialog, update);
    connect(format, &QComboBox::currentIndexChanged, dialog, update);
    update();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    QPushButton* save = buttons->addButton(tr("&Save\u2026"), QDialogButtonBox::AcceptRole);
    save->setObjectName(QStringLiteral("matrixSave"));
    save->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(save, &QPushButton::clicked, dialog, [=, this] {
        const QString stageKey = stage->currentData().toString();
        const Stage chosen = parseStage(stageKey).value_or(Stage::Weights);
        const int h = head->isEnabled() ? head->currentData().toInt() : 0;
        MatrixChoice c = choice();
        const QString headPart =
            head->isEnabled() ? QStringLiteral("-head%1").arg(h + 1) : QString();
        QString path = m_chooser(
            tr("Export Matrix"),
            suggestedPath(headPart + QLatin1Char('-') + stageKey + QLatin1String(c.suffix)),
            tr(c.label) + QStringLiteral(" (*%1)").arg(QLatin1String(c.suffix)));
        if (path.isEmpty())
            return;
        // A suffix typed by the user chooses the format; .tex keeps the LaTeX kind chosen.
        const auto named = matrixFormatForPath(path);
        if (!named)
            path += QLatin1String(c.suffix);
        else if (!(isLatex(*named) && isLatex(c.format)))
            c.format = *named;
        try {
            const StageMatrix matrix = stageMatrix(*m_source.result, chosen, h);
            core::writeFileAtomically(path, stageBytes(matrix, c.format, precision->value()));
        } catch (const std::exception& e) {
            showFailure(
                tr("The matrix was not saved to \u201c%1\u201d.").arg(QFileInfo(path).fileName()),
                sentence(QString::fromStdString(e.what())) + QLatin1Char('\n') +
                    tr("Any file already there is unchanged."));
            return;
        }
        preferences::ExportChoices choices;
        choices.matrixStage = stageKey;
        choices.matrixFormat = format->currentData().toString();
        preferences::storeExportChoices(choices);
        rememberDirectory(path);
        m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
        dialog->accept();
    });

    auto* form = new QFormLayout;
    form->addRow(tr("&Stage:"), stage);
    form->addRow(tr("&Head:"), head);
    form->addRow(tr("&Format:"), format);
    form->addRow(tr("&Decimals:"), precision);
    form->addRow(QString(), note);
    auto* layout = new QVBoxLayout(dialog);
    layout->addLayout(form);
    layout->addWidget(buttons);
    dialog->setMinimumWidth(360);
    dialog->open();
}

} // namespace attn::ui
