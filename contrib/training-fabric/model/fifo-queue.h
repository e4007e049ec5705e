/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FIFO_QUEUE_H
#define FIFO_QUEUE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace ns3
{

/**
 * \ingroup training-fabric
 * A first-in first-out queue on a ring buffer that allocates nothing until
 * its first element (the subset of std::deque's interface the devices and
 * queue pairs use).
 *
 * A FabricNetDevice holds nine queues (eight classes and PFC frames). Each
 * std::deque allocates its map and a 512-byte node when it is constructed:
 * about 5 KB per device before any frame, 2 GB for the 400,000 devices of a
 * 100,000-host leaf-spine. Most ports of a large fabric never queue a frame
 * of most classes; this queue costs 16 bytes until it does. It grows by
 * doubling (from 16 slots) and releases its buffer on clear(). pop_front()
 * resets the slot it frees, so an element (a Ptr<Packet>) is released when
 * it leaves the queue, as with std::deque.
 *
 * A queue pair keeps its messages and its packets' send times in such
 * queues: 24 bytes each instead of std::deque's 80 (with the queue pair's
 * other per-packet fields, fewer cache lines), elements contiguous, and a
 * steady flow allocates nothing, where a deque allocates and frees a node
 * every 512 bytes (issue #15).
 */
template <typename T>
class FifoQueue
{
  public:
    FifoQueue() = default;

    /// Copies the elements (a device copied from its prototype copies an empty queue).
    FifoQueue(const FifoQueue& o)
    {
        for (uint32_t i = 0; i < o.m_size; ++i)
        {
            push_back(o.m_buf[(o.m_head + i) & (o.m_capacity - 1)]);
        }
    }

    FifoQueue& operator=(const FifoQueue& o)
    {
        if (this != &o)
        {
            FifoQueue copy(o);
            std::swap(m_buf, copy.m_buf);
            std::swap(m_head, copy.m_head);
            std::swap(m_size, copy.m_size);
            std::swap(m_capacity, copy.m_capacity);
        }
        return *this;
    }

    bool empty() const
    {
        return m_size == 0;
    }

    std::size_t size() const
    {
        return m_size;
    }

    T& front()
    {
        return m_buf[m_head];
    }

    const T& front() const
    {
        return m_buf[m_head];
    }

    /// \return the element \p i places behind the front; requires i < size()
    T& operator[](std::size_t i)
    {
        return m_buf[(m_head + i) & (m_capacity - 1)];
    }

    /// \return the element \p i places behind the front; requires i < size()
    const T& operator[](std::size_t i) const
    {
        return m_buf[(m_head + i) & (m_capacity - 1)];
    }

    /// \return the newest element; requires !empty()
    const T& back() const
    {
        return (*this)[m_size - 1];
    }

    void push_back(T value)
    {
        if (m_size == m_capacity)
        {
            Grow();
        }
        m_buf[(m_head + m_size) & (m_capacity - 1)] = std::move(value);
        ++m_size;
    }

    void pop_front()
    {
        m_buf[m_head] = T();
        --m_size;
        // An emptied queue starts again at slot 0: a queue that rarely holds
        // more than a frame or two then keeps to its first cache line
        // instead of cycling through all of them (issue #15).
        m_head = m_size == 0 ? 0 : (m_head + 1) & (m_capacity - 1);
    }

    /// Drops every element and the buffer.
    void clear()
    {
        m_buf.reset();
        m_head = 0;
        m_size = 0;
        m_capacity = 0;
    }

  private:
    static constexpr uint32_t kFirstCapacity = 16; //!< a power of two

    void Grow()
    {
        const uint32_t capacity = m_capacity == 0 ? kFirstCapacity : 2 * m_capacity;
        std::unique_ptr<T[]> buf(new T[capacity]);
        for (uint32_t i = 0; i < m_size; ++i)
        {
            buf[i] = std::move(m_buf[(m_head + i) & (m_capacity - 1)]);
        }
        m_buf = std::move(buf);
        m_head = 0;
        m_capacity = capacity;
    }

    std::unique_ptr<T[]> m_buf; //!< m_capacity slots, or none
    uint32_t m_head{0};         //!< slot of the front element
    uint32_t m_size{0};         //!< elements queued
    uint32_t m_capacity{0};     //!< 0 or a power of two
};

} // namespace ns3

#endif /* FIFO_QUEUE_H */
