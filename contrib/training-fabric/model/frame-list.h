/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FRAME_LIST_H
#define FRAME_LIST_H

namespace ns3
{

class FabricFrame;

/**
 * \ingroup training-fabric
 * \brief Frames in a list linked through the frames themselves
 * (FabricFrame::m_linkNext), oldest first; the list owns them. What a port's
 * class queue (FrameQueue) and a cable's frames in flight
 * (FabricChannel::Wire) share: a frame is in one of them at a time, and
 * taking it out reads only the frame, which its taker reads anyway, and no
 * buffer of the list's own, which would be read cold. The two differ in
 * what each frame's link word holds, which they write.
 *
 * This header only declares it (a holder's header needs no frame); the
 * members that touch a frame are defined inline in fabric-frame.h, which
 * every user of them includes, and the destructor in fabric-frame.cc.
 */
class FrameList
{
  public:
    FrameList() = default;
    FrameList(const FrameList&) = delete;
    FrameList& operator=(const FrameList&) = delete;
    ~FrameList();

    /// \return true if the list holds no frame
    bool IsEmpty() const
    {
        return m_head == nullptr;
    }

    /// \return the oldest frame (nullptr if none), still in the list
    FabricFrame* Head() const
    {
        return m_head;
    }

    /**
     * Append \p f (the list takes it over) as the newest frame.
     * \return the frame that was newest before it (nullptr if none)
     */
    inline FabricFrame* Append(FabricFrame* f);
    /// Take the oldest frame out (the caller takes it over); requires !IsEmpty().
    inline FabricFrame* TakeHead();
    /// \return the frame after \p f in its list (nullptr if \p f is the newest)
    static inline FabricFrame* Next(const FabricFrame* f);
    /// Free every frame.
    inline void Clear();

  private:
    FabricFrame* m_head{nullptr}; //!< the oldest frame
    FabricFrame* m_tail{nullptr}; //!< the newest frame
};

} // namespace ns3

#endif /* FRAME_LIST_H */
