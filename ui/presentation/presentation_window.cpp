#include "ui/presentation/presentation_window.h"

#include "ui/presentation/presentation_steps.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QStackedLayout>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

namespace attn::ui {

namespace {

constexpr std::array kThemes{PresentationTheme::Light, PresentationTheme::Dark, PresentationTheme::HighContrast,
                             PresentationTheme::Print};

// Sizes at a 1080-pixel-high screen; everything scales with the height.
constexpr double kReferenceHeight = 1080.0;
constexpr double kCaptionPixels = 46.0;
constexpr double kHeaderPixels = 22.0;
constexpr double kControlPixels = 20.0;
constexpr double kFigurePoints = 20.0;

QFont mathFont()
{
    // Set like a textbook: a serif with real italics, whichever of these is installed.
    QFont font;
    font.setFamilies({QStringLiteral("Latin Modern Roman"), QStringLiteral("CMU Serif"), QStringLiteral("STIX Two Text"),
                      QStringLiteral("Cambria"), QStringLiteral("TeX Gyre Termes"), QStringLiteral("Nimbus Roman"),
                      QStringLiteral("Times New Roman"), QStringLiteral("DejaVu Serif")});
    font.setStyleHint(QFont::Serif);
    return font;
}

} // namespace

QString presentationThemeName(PresentationTheme theme)
{
    switch (theme) {
    case PresentationTheme::Light: return QStringLiteral("Light");
    case PresentationTheme::Dark: return QStringLiteral("Dark");
    case PresentationTheme::HighContrast: return QStringLiteral("High contrast");
    case PresentationTheme::Print: return QStringLiteral("Print");
    }
    return {};
}

FigureStyle presentationStyle(PresentationTheme theme)
{
    FigureStyle style; // Light: the figures' own colours
    switch (theme) {
    case PresentationTheme::Light: break;
    case PresentationTheme::Dark:
        style.background = QColor(0x15, 0x17, 0x1a);
        style.text = QColor(0xec, 0xec, 0xec);
        style.mutedText = QColor(0x70, 0x74, 0x7c);
        style.masked = QColor(0x4a, 0x4d, 0x52);
        style.placeholder = QColor(0x23, 0x26, 0x2b);
        style.accent = QColor(0xe6, 0x9f, 0x00); // Okabe-Ito orange
        break;
    case PresentationTheme::HighContrast:
        // A projector washes out greys and thin lines: black on white, lines twice as thick.
        style.background = Qt::white;
        style.text = Qt::black;
        style.mutedText = QColor(0x59, 0x59, 0x59); // still 7:1 on white
        style.placeholder = Qt::white;
        style.accent = Qt::black;
        style.lineScale = 2.0;
        break;
    case PresentationTheme::Print:
        style.background = Qt::white;
        style.text = Qt::black;
        style.mutedText = QColor(0x7f, 0x7f, 0x7f);
        style.masked = Qt::white;
        style.hatchMasked = true;
        style.placeholder = Qt::white;
        style.accent = Qt::black;
        style.signedColormap = Colormap::Gray;
        break;
    }
    return style;
}

Colormap presentationColormap(PresentationTheme theme)
{
    switch (theme) {
    case PresentationTheme::HighContrast: return Colormap::Cividis;
    case PresentationTheme::Print: return Colormap::Gray;
    case PresentationTheme::Light:
    case PresentationTheme::Dark: break;
    }
    return Colormap::Viridis;
}

PresentationWindow::PresentationWindow(std::shared_ptr<const core::AttentionResult> result, QWidget* parent)
    : QWidget(parent, Qt::Window), m_result(std::move(result))
{
    setWindowTitle(tr("Attention Explorer: presentation"));
    setAutoFillBackground(true);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);

    m_stepLabel = new QLabel(this);
    m_settingsLabel = new QLabel(this);
    m_settingsLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_caption = new QLabel(this);
    m_caption->setTextFormat(Qt::RichText);
    m_caption->setAlignment(Qt::AlignCenter);
    m_plot = new QCustomPlot(this);
    m_plot->setFocusPolicy(Qt::NoFocus); // keys are the window's: a clicker steps, never a widget
    m_message = new QLabel(this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);

    auto* header = new QHBoxLayout;
    header->addWidget(m_stepLabel);
    header->addStretch();
    header->addWidget(m_settingsLabel);
    m_stack = new QStackedLayout;
    m_stack->addWidget(m_plot);
    m_stack->addWidget(m_message);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_caption);
    layout->addLayout(m_stack, 1);

    // The controls float over the bottom edge and take no room from the figure.
    m_controls = new QFrame(this);
    m_controls->setObjectName(QStringLiteral("presentationControls"));
    auto* bar = new QHBoxLayout(m_controls);
    m_previous = new QToolButton(m_controls);
    m_previous->setText(QStringLiteral("◀"));
    m_previous->setToolTip(tr("Previous step (Left, Page Up)"));
    m_position = new QLabel(m_controls);
    m_next = new QToolButton(m_controls);
    m_next->setText(QStringLiteral("▶"));
    m_next->setToolTip(tr("Next step (Right, Space, Page Down)"));
    m_headCombo = new QComboBox(m_controls);
    m_themeCombo = new QComboBox(m_controls);
    for (PresentationTheme theme : kThemes)
        m_themeCombo->addItem(presentationThemeName(theme), int(theme));
    m_exit = new QToolButton(m_controls);
    m_exit->setText(tr("✕ Exit"));
    m_exit->setToolTip(tr("Leave the presentation (Escape, F11)"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_previous, m_position, m_next, m_headCombo, m_themeCombo, m_exit}) {
        w->setFocusPolicy(Qt::NoFocus);
        bar->addWidget(w);
    }
    m_controls->hide();

    connect(m_previous, &QToolButton::clicked, this, &PresentationWindow::previousStep);
    connect(m_next, &QToolButton::clicked, this, &PresentationWindow::nextStep);
    connect(m_exit, &QToolButton::clicked, this, &QWidget::close);
    connect(m_headCombo, &QComboBox::activated, this, [this](int index) { setHead(index); });
    connect(m_themeCombo, &QComboBox::activated, this,
            [this](int index) { setTheme(PresentationTheme(m_themeCombo->itemData(index).toInt())); });

    m_hideTimer = new QTimer(this);
    m_hideTimer->setSingleShot(true);
    m_hideTimer->setInterval(2000);
    connect(m_hideTimer, &QTimer::timeout, this, &PresentationWindow::hideControls);

    // Any movement anywhere shows the controls; the plot also reports the cell under the pointer.
    for (QWidget* w : std::initializer_list<QWidget*>{m_plot, m_caption, m_stepLabel, m_settingsLabel, m_message, m_controls}) {
        w->setMouseTracking(true);
        w->installEventFilter(this);
    }

    updateHeadCombo();
    applyTheme();
    updateTexts();
}

PresentationWindow::~PresentationWindow() = default;

int PresentationWindow::stepCount() const { return kPresentationSteps; }

QString PresentationWindow::stepName(int step) { return presentationStepName(step); }

QString PresentationWindow::caption() const { return m_caption->text(); }

QString PresentationWindow::message() const { return m_stack->currentWidget() == m_message ? m_message->text() : QString(); }

QWidget* PresentationWindow::controls() const { return m_controls; }

void PresentationWindow::setControlsHideDelay(int milliseconds) { m_hideTimer->setInterval(milliseconds); }

void PresentationWindow::setResult(std::shared_ptr<const core::AttentionResult> result)
{
    m_builder.reset(); // it points into the result being replaced
    m_result = std::move(result);
    updateHeadCombo();
    m_head = std::clamp(m_head, 0, std::max(0, m_headCombo->count() - 1));
    updateTexts();
    m_rebuild.schedule(); // a slider dragged in the explorer sends results faster than figures are drawn
}

void PresentationWindow::setHead(int head)
{
    head = std::clamp(head, 0, std::max(0, m_headCombo->count() - 1));
    if (head == m_head)
        return;
    m_head = head;
    m_headCombo->setCurrentIndex(head);
    updateTexts();
    rebuild();
}

void PresentationWindow::setTheme(PresentationTheme theme)
{
    if (theme == m_theme)
        return;
    m_theme = theme;
    m_themeCombo->setCurrentIndex(m_themeCombo->findData(int(theme)));
    applyTheme();
    applySizes(); // the high-contrast type is larger
    rebuild();
}

void PresentationWindow::setStep(int step)
{
    step = std::clamp(step, 1, stepCount());
    if (step == m_step)
        return;
    m_step = step;
    updateTexts();
    rebuild();
    emit stepChanged(m_step);
}

void PresentationWindow::nextStep() { setStep(m_step + 1); }

void PresentationWindow::previousStep() { setStep(m_step - 1); }

void PresentationWindow::keyPressEvent(QKeyEvent* event)
{
    // What presentation clickers send: Page Down/Up (most), arrows, Space, Backspace.
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Space:
    case Qt::Key_PageDown:
    case Qt::Key_Return:
    case Qt::Key_Enter: nextStep(); break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_PageUp:
    case Qt::Key_Backspace: previousStep(); break;
    case Qt::Key_Home: setStep(1); break;
    case Qt::Key_End: setStep(stepCount()); break;
    case Qt::Key_Escape:
    case Qt::Key_F11: close(); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void PresentationWindow::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    applySizes();
    placeControls();
}

void PresentationWindow::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    layout()->activate(); // the plot's size is needed now
    applySizes();
    rebuild();
    setFocus();
}

void PresentationWindow::closeEvent(QCloseEvent* event)
{
    QWidget::closeEvent(event);
    if (event->isAccepted())
        emit closed();
}

bool PresentationWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Resize && m_plot->size() != m_builtSize) {
        // The figure is laid out for one size (square cells, fitted labels): build it again
        // once the plot has its new one.
        m_rebuild.schedule();
    } else if (event->type() == QEvent::MouseMove) {
        pointerMoved();
        if (watched == m_plot)
            hover(static_cast<QMouseEvent*>(event)->position());
    } else if (event->type() == QEvent::Leave && watched == m_plot) {
        hover(QPointF(-1, -1));
    }
    return QWidget::eventFilter(watched, event);
}

FigureSpec PresentationWindow::figureSpec() const
{
    FigureSpec spec;
    spec.view = FigureView::Pipeline;
    spec.head = m_head;
    spec.presentationStep = m_step;
    spec.colormap = presentationColormap(m_theme);
    spec.style = presentationStyle(m_theme);
    spec.colorBar = false; // the numbers are in the cells
    spec.showValues = true;
    spec.precision = 2;
    // Points at a DPI that grows with the screen: text keeps its share of the height.
    spec.dpi = 96.0 * std::max(0.4, height() / kReferenceHeight);
    spec.fontPoints = kFigurePoints * (m_theme == PresentationTheme::HighContrast ? 1.15 : 1.0);
    return spec;
}

void PresentationWindow::rebuild()
{
    m_rebuild.markDone();
    m_hovered.reset();
    if (!m_result) {
        m_builder.reset();
        m_message->setText(tr("Nothing to present yet."));
        m_stack->setCurrentWidget(m_message);
        return;
    }
    if (!isVisible() || m_plot->width() < 16 || m_plot->height() < 16)
        return; // built when shown
    try {
        auto builder = std::make_unique<FigureBuilder>(*m_plot, figureSpec());
        builder->build(*m_result, m_plot->size());
        m_builder = std::move(builder);
        m_builtSize = m_plot->size();
        m_stack->setCurrentWidget(m_plot);
    } catch (const std::exception& error) {
        m_builder.reset();
        m_plot->clearItems();
        m_plot->clearPlottables();
        m_plot->plotLayout()->clear();
        m_message->setText(QString::fromUtf8(error.what()));
        m_stack->setCurrentWidget(m_message);
    }
    m_plot->replot();
}

void PresentationWindow::updateTexts()
{
    const QString name = stepName(m_step);
    m_stepLabel->setText(tr("Step %1 of %2 · %3").arg(m_step).arg(stepCount()).arg(name));
    m_position->setText(QStringLiteral("%1 / %2").arg(m_step).arg(stepCount()));
    m_previous->setEnabled(m_step > 1);
    m_next->setEnabled(m_step < stepCount());
    if (!m_result) {
        m_settingsLabel->clear();
        m_caption->clear();
        return;
    }
    const core::Problem& problem = *m_result->problem;
    const int heads = int(m_result->heads.size());
    QString settings = FigureBuilder::settingsSummary(problem);
    if (heads > 1)
        settings = tr("head %1 of %2 · ").arg(m_head + 1).arg(heads) + settings;
    m_settingsLabel->setText(settings);
    m_caption->setText(presentationCaption(m_step, problem));
    fitCaption();
}

void PresentationWindow::applyTheme()
{
    const FigureStyle style = presentationStyle(m_theme);
    QPalette palette = this->palette();
    palette.setColor(QPalette::Window, style.background);
    palette.setColor(QPalette::WindowText, style.text);
    setPalette(palette);
    for (QLabel* muted : {m_stepLabel, m_settingsLabel}) {
        QPalette p = muted->palette();
        p.setColor(QPalette::WindowText, m_theme == PresentationTheme::Light || m_theme == PresentationTheme::Dark
                                             ? style.mutedText
                                             : style.text);
        muted->setPalette(p);
    }
    // The bar is dark in every theme, so it reads over any figure.
    m_controls->setStyleSheet(
        QStringLiteral("#presentationControls { background: rgba(20, 20, 20, 225); border-radius: 8px; }"
                       "#presentationControls QLabel, #presentationControls QToolButton { color: white; }"
                       "#presentationControls QToolButton { border: none; padding: 2px 10px; }"
                       "#presentationControls QToolButton:hover { background: rgba(255, 255, 255, 40); }"
                       "#presentationControls QToolButton:disabled { color: #777; }"
                       "#presentationControls QComboBox { color: white; background: rgba(255, 255, 255, 30);"
                       " border: 1px solid #777; border-radius: 4px; padding: 2px 10px; }"
                       "#presentationControls QComboBox QAbstractItemView { color: white; background: #262626;"
                       " selection-background-color: #555; }"));
    m_plot->setBackground(style.background);
}

void PresentationWindow::applySizes()
{
    const double scale = std::max(0.4, height() / kReferenceHeight);
    const double type = m_theme == PresentationTheme::HighContrast ? 1.15 : 1.0;
    QFont header = font();
    header.setPixelSize(int(std::lround(kHeaderPixels * scale * type)));
    m_stepLabel->setFont(header);
    m_settingsLabel->setFont(header);
    QFont controls = font();
    controls.setPixelSize(int(std::lround(kControlPixels * scale)));
    m_controls->setFont(controls);
    for (QWidget* w : m_controls->findChildren<QWidget*>())
        w->setFont(controls);
    const int margin = int(std::lround(24 * scale));
    layout()->setContentsMargins(margin, margin / 2, margin, margin / 2);
    layout()->setSpacing(int(std::lround(8 * scale)));
    fitCaption();
    placeControls();
}

// The caption is one line: large, and smaller only when the equation would not fit.
void PresentationWindow::fitCaption()
{
    const double scale = std::max(0.4, height() / kReferenceHeight);
    const double type = m_theme == PresentationTheme::HighContrast ? 1.15 : 1.0;
    QFont font = mathFont();
    int pixels = int(std::lround(kCaptionPixels * scale * type));
    const double room = std::max(100, width() - 2 * layout()->contentsMargins().left());
    QTextDocument document;
    document.setHtml(m_caption->text());
    for (; pixels > 10; pixels = int(pixels * 0.92)) {
        font.setPixelSize(pixels);
        document.setDefaultFont(font);
        if (document.idealWidth() <= room)
            break;
    }
    m_caption->setFont(font);
}

void PresentationWindow::updateHeadCombo()
{
    const int heads = m_result ? int(m_result->heads.size()) : 0;
    if (m_headCombo->count() != heads) {
        m_headCombo->clear();
        for (int h = 0; h < heads; ++h)
            m_headCombo->addItem(tr("Head %1").arg(h + 1));
    }
    m_headCombo->setVisible(heads > 1);
    m_headCombo->setCurrentIndex(std::clamp(m_head, 0, std::max(0, heads - 1)));
}

void PresentationWindow::pointerMoved()
{
    if (!m_controls->isVisible()) {
        m_controls->show();
        m_controls->raise();
        placeControls();
    }
    unsetCursor();
    m_plot->unsetCursor();
    m_hideTimer->start();
}

void PresentationWindow::hideControls()
{
    // Not while the pointer rests on the bar or one of its lists is open.
    const bool inUse = m_controls->underMouse() || m_headCombo->view()->isVisible() || m_themeCombo->view()->isVisible();
    if (inUse) {
        m_hideTimer->start();
        return;
    }
    m_controls->hide();
    setCursor(Qt::BlankCursor); // nothing on the screen but the figure
    m_plot->setCursor(Qt::BlankCursor);
}

void PresentationWindow::placeControls()
{
    m_controls->adjustSize();
    const QSize size = m_controls->sizeHint();
    const int bottom = int(std::lround(24 * std::max(0.4, height() / kReferenceHeight)));
    m_controls->setGeometry((width() - size.width()) / 2, height() - size.height() - bottom, size.width(), size.height());
}

void PresentationWindow::hover(QPointF pixel)
{
    if (!m_builder)
        return;
    const auto cell = m_builder->cellAt(pixel);
    std::optional<std::pair<int, std::pair<int, int>>> key;
    if (cell)
        key = {cell->panel, {cell->row, cell->column}};
    if (key == m_hovered)
        return;
    m_hovered = key;
    m_builder->highlightCell(cell);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attn::ui
