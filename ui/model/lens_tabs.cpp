#include "ui/model/lens_tabs.h"

#include "ui/model/attribution_view.h"
#include "ui/model/lens_view.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/patching_view.h"

#include <QTabWidget>

namespace attn::ui {

namespace {

// A view's errors into the window's message bar, under `key`.
template <typename View>
void forwardErrors(View* view, const QString& key, const LensTabs::Hooks& hooks, QObject* context)
{
    QObject::connect(view, &View::errorShown, context,
                     [hooks, key](const QString& text) { hooks.showError(key, text); });
    QObject::connect(view, &View::errorCleared, context,
                     [hooks, key] { hooks.showError(key, QString()); });
}

} // namespace

LensTabs::LensTabs(QTabWidget& tabs, Hooks hooks, QObject* parent) : QObject(parent)
{
    m_lens = new LensView(&tabs);
    m_lens->setObjectName(QStringLiteral("lensView"));
    m_patching = new PatchingView(&tabs);
    m_patching->setObjectName(QStringLiteral("patchingView"));
    m_attribution = new AttributionView(&tabs);
    m_attribution->setObjectName(QStringLiteral("attributionView"));
    tabs.setTabToolTip(tabs.addTab(m_lens, tr("Logit lens")),
                       tr("What each layer would predict at each position: the final norm and "
                          "the unembedding applied after every layer"));
    tabs.setTabToolTip(tabs.addTab(m_patching, tr("Patc&hing")),
                       tr("Activation patching: which heads carry the answer from a clean prompt "
                          "into a corrupted one"));
    tabs.setTabToolTip(tabs.addTab(m_attribution, tr("Attri&bution")),
                       tr("Direct logit attribution: each head's share of the predicted token's "
                          "logit"));
    forwardErrors(m_lens, QStringLiteral("lens"), hooks, this);
    forwardErrors(m_patching, QStringLiteral("patching"), hooks, this);
    forwardErrors(m_attribution, QStringLiteral("attribution"), hooks, this);
    connect(m_patching, &PatchingView::headClicked, this, hooks.openHead);
    connect(m_attribution, &AttributionView::headClicked, this, hooks.openHead);
}

QWidget* LensTabs::createTrace(QWidget* parent)
{
    return m_lens->createTrace(parent);
}

void LensTabs::setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend,
                         const QString& sentence)
{
    m_lens->setSource(result, makeBackend);
    m_patching->setSource(result, makeBackend, sentence);
    m_attribution->setSource(result);
}

void LensTabs::setSelection(int layer, int head)
{
    m_patching->setSelection(layer, head);
    m_attribution->setSelection(layer, head);
}

void LensTabs::setFigureStyle(const FigureStyle& style)
{
    m_lens->setFigureStyle(style);
    m_patching->setFigureStyle(style);
    m_attribution->setFigureStyle(style);
}

void LensTabs::fill(ModelFigureSource& source) const
{
    source.lens = m_lens->lens();
    source.patching = m_patching->patching();
    source.attribution = m_attribution->attribution();
}

} // namespace attn::ui
