#pragma once

#include <QString>
#include <QStringList>

namespace attn::test {

// Seed 001's cat-and-mouse sentence in its twelve languages (Italian, German, French, Spanish,
// Japanese, Korean, Hindi, Marathi, Kannada, Malayalam, Gujarati, Tamil): every script a
// figure must render.
inline const QStringList& seedSentences()
{
    static const QStringList sentences{
        QStringLiteral("Il gatto nero ha mangiato il topo."),
        QStringLiteral("Die schwarze Katze hat die Maus gefressen."),
        QStringLiteral("Le chat noir a mangé la souris."),
        QStringLiteral("El gato negro se comió el ratón."),
        QStringLiteral("黒い猫がネズミを食べました。"),
        QStringLiteral("검은 고양이가 쥐를 먹었습니다."),
        QStringLiteral("काली बिल्ली ने माउस को खाया।"),
        QStringLiteral("काळी मांजराने माउस खाला."),
        QStringLiteral("ಕಪ್ಪು ಬೆಕ್ಕು ಎಲೆಹಿರುಳು ತಿಂದಿತು."),
        QStringLiteral("കരിമനുഷ്യൻ ചൂണ്ടു കളിച്ചു."),
        QStringLiteral("કાળી બિલાડી માઉસ ખાયું."),
        QStringLiteral("கருப்பு பூனை செல்லி சாப்பிட்டது."),
    };
    return sentences;
}

// The romanizations the seed gives beside six of them (macrons, dots below: Latin Extended).
inline const QStringList& seedTransliterations()
{
    static const QStringList transliterations{
        QStringLiteral("Kuroi neko ga nezumi o tabemashita."),
        QStringLiteral("Geomeun goyang-iga jwireul meogeossseubnida."),
        QStringLiteral("Kālī billī ne mā'usa ko khāyā."),
        QStringLiteral("Kāļī māñjarāne mā'usa khālā."),
        QStringLiteral("Kappu beku elehiruļu tiṁdithu."),
        QStringLiteral("Kari manusyan cūntu kaliccu."),
        QStringLiteral("Kāļī bilāḍī mā'usa khāyũ."),
        QStringLiteral("Karuppu pūṇai celli sāppiṭṭatu."),
    };
    return transliterations;
}

inline const QStringList& seedLanguages()
{
    static const QStringList languages{
        QStringLiteral("Italian"),   QStringLiteral("German"),   QStringLiteral("French"),
        QStringLiteral("Spanish"),   QStringLiteral("Japanese"), QStringLiteral("Korean"),
        QStringLiteral("Hindi"),     QStringLiteral("Marathi"),  QStringLiteral("Kannada"),
        QStringLiteral("Malayalam"), QStringLiteral("Gujarati"), QStringLiteral("Tamil")};
    return languages;
}

} // namespace attn::test
