#pragma once

#include <QHash>
#include <QString>
#include <vector>

namespace attn::core {

// Word vectors from a GloVe ("word v1 v2 ...") or word2vec text file ("count dim" header,
// then the same rows). Sizes are checked line by line; the file is never trusted to say
// how much to allocate.
class WordVectors
{
public:
    // Throws Error with the line number of the first malformed line. load() streams the file
    // (at most 2 GiB); both refuse more than 2^28 values in total. A repeated word keeps its
    // first vector.
    static WordVectors load(const QString& path);
    static WordVectors parse(const QByteArray& text, const QString& nameForMessages);

    int dimension() const { return m_dimension; }
    qsizetype size() const { return m_index.size(); }
    // nullptr when the word is unknown; otherwise dimension() floats.
    const float* find(const QString& word) const;
    // Every word in the order of the file (row r is words()[r]), and row r's dimension()
    // floats: for the embedding-space view (nearest words, analogies, maps).
    std::vector<QString> words() const
    {
        std::vector<QString> out(std::size_t(m_index.size()));
        for (auto it = m_index.cbegin(); it != m_index.cend(); ++it)
            out[std::size_t(it.value())] = it.key();
        return out;
    }
    const float* row(qsizetype r) const { return m_values.data() + r * m_dimension; }

private:
    class Parser; // line-by-line reader shared by load() and parse()

    int m_dimension = 0;
    QHash<QString, qsizetype> m_index; // word -> row
    std::vector<float> m_values;
};

} // namespace attn::core
