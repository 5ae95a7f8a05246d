#pragma once

#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_steps.h"

#include "core/matrix.h"
#include "core/problem.h"

#include <QCoreApplication>
#include <QString>

// The parts of presentation_steps.h, one file each: presentation_steps.cpp (the steps and the
// public functions), presentation_math.cpp (typesetting and the equation's shared parts),
// presentation_captions.cpp (each step's equation), presentation_numbers.cpp (the equation
// with the chosen cell's numbers), presentation_block_steps.cpp and
// presentation_mixing_steps.cpp, presentation_kernel_steps.cpp (the steps a scene adds,
// presentation_extras.h).
namespace attn::ui::steps_detail {

// tr() for the presentation's words (no QObject here): lupdate reads the context from it.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(PresentationSteps)
};

// ---- Typesetting: presentation_math.cpp -----------------------------------------------------

// Math as a textbook sets it: scalars and indices italic, vectors bold, function names
// upright, and real subscripts and superscripts.
QString it(const QString& s);
QString sub(const QString& s);
QString sup(const QString& s);
QString vec(const QString& name, const QString& index);
QString scalar(const QString& name, const QString& indices);
extern const QString kGap; // rich text collapses other spaces
extern const QString kDk;
extern const QString kTau;

// A setting's value in a caption: three significant digits, a real minus sign.
QString number(double value);
// A number as the numbers line sets it: at most two decimals, trailing zeros dropped, a real
// minus sign, tiny values as a power of ten, infinities as ∞.
QString num(double v);
// In a product a negative factor takes parentheses: 3 × (−2).
QString factor(double v);
// A row of a matrix as a vector: all of it up to `shown` entries, else the first ones and "…".
QString vectorText(const core::Matrix& m, int row, int shown = 4);
// t₂, s₂,₁₂ and q₂ in bold, with indices counted from 1.
QString indexed(const QString& name, int a);
QString indexed(const QString& name, int a, int b);
QString bold(const QString& name, int a);

// The score of query i and key `key` as the problem's score function computes it.
QString scoreExpression(core::ScoreKind kind, const QString& key);
// What the scores are divided by ("" when nothing): sqrt(d_k) and the temperature.
QString divisor(const core::Problem& p);
QString fillValue(core::MaskFill fill);

// ---- Each step's equation: presentation_captions.cpp -----------------------------------------

QString caption(PresentationStep step, const core::Problem& p);

// ---- The equation with the chosen cell's numbers: presentation_numbers.cpp ---------------------

QString numbers(PresentationStep step, const core::AttentionResult& r, int hIndex, int i, int j);

// ---- A stacked scene's block: presentation_block_steps.cpp ------------------------------------

QString blockCaption(PresentationStep step, const PresentationExtras& extras);
QString blockNumbers(PresentationStep step, const PresentationExtras& extras, int query);

// ---- Fixed against data-dependent mixing weights: presentation_mixing_steps.cpp ----------------

QString mixingCaption(PresentationStep step, const core::Problem& p,
                      const PresentationExtras& extras);
QString mixingNumbers(PresentationStep step, const PresentationExtras& extras, int head, int query,
                      int key);

// ---- Seed 004's fixed kernel against learned maps: presentation_kernel_steps.cpp ---------------

QString kernelCaption(PresentationStep step, const PresentationExtras::Kernel& kernel);
QString kernelNumbers(PresentationStep step, const PresentationExtras::Kernel& kernel);

} // namespace attn::ui::steps_detail
